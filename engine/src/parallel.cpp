#include "cloth/parallel.hpp"

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

int max_nesting_levels() {
#ifdef _OPENMP
  return omp_get_max_active_levels();
#else
  return 1;
#endif
}

}  // namespace cloth
