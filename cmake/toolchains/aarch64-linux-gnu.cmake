# Cross build for aarch64 Linux on an x86-64 Debian host (docs/toolchain.md): Debian's cross
# compiler, the arm64 libraries installed through multiarch (scripts/deps.sh --aarch64), and
# qemu-user to run what is built (ctest, the tools tests and `coheriq bench` children go through
# CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Packages and libraries only from the arm64 side; programs (qemu, python, nm) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# `-L /`: the multiarch loader with the multiarch libc, libstdc++ and libm it finds through
# /etc/ld.so.cache. `-L /usr/aarch64-linux-gnu` would mix the cross package's loader with the
# multiarch libc (a different build) and every pthread_create spins forever. The CPU model is
# chosen per test with QEMU_CPU (qemu's default model has SVE).
set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-aarch64;-L;/")
