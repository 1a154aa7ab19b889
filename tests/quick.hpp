// COHERIQ_TEST_QUICK=1: the quick sizes, which the emulated runs and the sanitizer stage take
// (docs/testing.md). One definition (quick.cpp, in coheriq_doctest) for every test program.
#pragma once

namespace coheriq::test {

// True when COHERIQ_TEST_QUICK is "1"; read once.
bool quick();

}  // namespace coheriq::test
