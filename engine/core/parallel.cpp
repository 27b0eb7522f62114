#include "core/parallel.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace cloth {

int available_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

int thread_number() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

int team_size() {
#ifdef _OPENMP
  return omp_get_num_threads();
#else
  return 1;
#endif
}

bool nested_parallelism_available() {
#ifdef _OPENMP
  return omp_get_active_level() + 2 <= omp_get_max_active_levels();
#else
  return false;
#endif
}

}  // namespace cloth
