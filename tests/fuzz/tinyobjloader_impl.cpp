// tinyobjloader's implementation, compiled with the fuzzer's instrumentation (see CMakeLists.txt).
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>
