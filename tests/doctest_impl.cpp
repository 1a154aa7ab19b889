// doctest's implementation, compiled once for every test program (the coheriq_doctest library of
// tests/CMakeLists.txt): it is most of a test file's compile time, and was compiled again in each
// program with a main of its own.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
