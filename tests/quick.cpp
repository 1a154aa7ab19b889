#include "quick.hpp"

#include <cstdlib>
#include <cstring>

namespace coheriq::test {

bool quick() {
  static const bool value = [] {
    const char* v = std::getenv("COHERIQ_TEST_QUICK");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return value;
}

}  // namespace coheriq::test
