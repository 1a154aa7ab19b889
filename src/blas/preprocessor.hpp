// The preprocessor tools that expand the table of routines (src/blas/routines.hpp): iteration
// over a row's types and over its arguments. Only macros, so that src/blas/exports.cpp can use
// them through the preprocessor alone.
//
// The two iterations are separate sets of macros because a macro cannot be expanded inside its
// own expansion, and a row's types each expand its arguments.
#pragma once

#define COHERIQ_UNPAREN(...) __VA_ARGS__
// Drops the first of a comma-separated list (every argument's expansion starts with a comma:
// COHERIQ_TAIL(~ <expansion>) is the list without the leading one).
#define COHERIQ_TAIL(...) COHERIQ_TAIL_(__VA_ARGS__)
#define COHERIQ_TAIL_(first, ...) __VA_ARGS__

// ------------------------------ Over the arguments of a row: M applied to each (kind, name, ...)
#define COHERIQ_CAT(a, b) COHERIQ_CAT_(a, b)
#define COHERIQ_CAT_(a, b) a##b
#define COHERIQ_COUNT(...) \
  COHERIQ_COUNT_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define COHERIQ_COUNT_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, n, \
                       ...)                                                                      \
  n
#define COHERIQ_FOR_EACH(M, ...) \
  COHERIQ_CAT(COHERIQ_FE_, COHERIQ_COUNT(__VA_ARGS__))(M, __VA_ARGS__)
#define COHERIQ_FE_1(M, x) M x
#define COHERIQ_FE_2(M, x, ...) M x COHERIQ_FE_1(M, __VA_ARGS__)
#define COHERIQ_FE_3(M, x, ...) M x COHERIQ_FE_2(M, __VA_ARGS__)
#define COHERIQ_FE_4(M, x, ...) M x COHERIQ_FE_3(M, __VA_ARGS__)
#define COHERIQ_FE_5(M, x, ...) M x COHERIQ_FE_4(M, __VA_ARGS__)
#define COHERIQ_FE_6(M, x, ...) M x COHERIQ_FE_5(M, __VA_ARGS__)
#define COHERIQ_FE_7(M, x, ...) M x COHERIQ_FE_6(M, __VA_ARGS__)
#define COHERIQ_FE_8(M, x, ...) M x COHERIQ_FE_7(M, __VA_ARGS__)
#define COHERIQ_FE_9(M, x, ...) M x COHERIQ_FE_8(M, __VA_ARGS__)
#define COHERIQ_FE_10(M, x, ...) M x COHERIQ_FE_9(M, __VA_ARGS__)
#define COHERIQ_FE_11(M, x, ...) M x COHERIQ_FE_10(M, __VA_ARGS__)
#define COHERIQ_FE_12(M, x, ...) M x COHERIQ_FE_11(M, __VA_ARGS__)
#define COHERIQ_FE_13(M, x, ...) M x COHERIQ_FE_12(M, __VA_ARGS__)
#define COHERIQ_FE_14(M, x, ...) M x COHERIQ_FE_13(M, __VA_ARGS__)
#define COHERIQ_FE_15(M, x, ...) M x COHERIQ_FE_14(M, __VA_ARGS__)
#define COHERIQ_FE_16(M, x, ...) M x COHERIQ_FE_15(M, __VA_ARGS__)

// ------------------------------ Over the types of a row: M(data, (letter, T)) for each
#define COHERIQ_TYPE_CAT(a, b) COHERIQ_TYPE_CAT_(a, b)
#define COHERIQ_TYPE_CAT_(a, b) a##b
#define COHERIQ_TYPE_COUNT(...) COHERIQ_TYPE_COUNT_(__VA_ARGS__, 4, 3, 2, 1, 0)
#define COHERIQ_TYPE_COUNT_(a1, a2, a3, a4, n, ...) n
#define COHERIQ_EACH_TYPE(M, data, ...) \
  COHERIQ_TYPE_CAT(COHERIQ_TE_, COHERIQ_TYPE_COUNT(__VA_ARGS__))(M, data, __VA_ARGS__)
#define COHERIQ_TE_1(M, d, t) M(d, t)
#define COHERIQ_TE_2(M, d, t, ...) M(d, t) COHERIQ_TE_1(M, d, __VA_ARGS__)
#define COHERIQ_TE_3(M, d, t, ...) M(d, t) COHERIQ_TE_2(M, d, __VA_ARGS__)
#define COHERIQ_TE_4(M, d, t, ...) M(d, t) COHERIQ_TE_3(M, d, __VA_ARGS__)

// A level-2/3 row as M(letter, T, stem, row_major, arguments...) once per type, and a level-1
// row as M(letter, T, stem, function, result, arguments...).
#define COHERIQ_ROW_23(M, stem, types, row_major, ...) \
  COHERIQ_EACH_TYPE(COHERIQ_APPLY_TYPE, (M, stem, row_major, __VA_ARGS__), COHERIQ_UNPAREN types)
#define COHERIQ_ROW_1(M, stem, function, types, result, ...)                      \
  COHERIQ_EACH_TYPE(COHERIQ_APPLY_TYPE, (M, stem, function, result, __VA_ARGS__), \
                    COHERIQ_UNPAREN types)
#define COHERIQ_APPLY_TYPE(data, type) \
  COHERIQ_APPLY_TYPE_(COHERIQ_UNPAREN type, COHERIQ_UNPAREN data)
#define COHERIQ_APPLY_TYPE_(...) COHERIQ_APPLY_TYPE__(__VA_ARGS__)
#define COHERIQ_APPLY_TYPE__(letter, T, M, ...) M(letter, T, __VA_ARGS__)
