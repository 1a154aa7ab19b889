// Small and batched GEMM of the engine in effect: gemm's small path (the engine's unpacked
// microkernel; a contiguous column of C as a row) against the oracle and bit for bit against the
// packed path; the strided and pointer-array batches against one gemm per product, bit for bit,
// on 1, 2, 3 and 7 threads (1 and 7 in quick runs); the plan against gemm; and the arguments the
// batches refuse. Operands as gemm_test.cpp's: padding holds NaN, data misaligned by an element,
// C NaN when beta == 0.
#include <doctest/doctest.h>

#include <coheriq/kernels.hpp>

#include <cstddef>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gemm_support.hpp"

namespace coheriq::kernels::testing {
namespace {

// Small products: every size a tile edge can fall on (1 to 13 rows, one to four vectors of any
// ISA), the square and odd shapes, k deeper than a k-block with few multiply-adds (the
// small path runs the packed path's k-blocks; 12 x 12 and 24 x 8 are equal bands of rows, which
// avx2's record runs in one call), and degenerate ones. Then two products past
// small³ whose k-blocks of op(A) and op(B) fit an engine's unpacked_bytes (avx512 and zen5: 512
// KiB), so that gemm runs them unpacked when op(B) is as stored, one over two or three k-blocks.
const std::vector<Shape>& small_shapes() {
  static const std::vector<Shape> shapes = [] {
    std::vector<Shape> s;
    for (std::size_t d : {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17, 24, 31, 32, 33, 48, 64}) {
      s.push_back({d, d, d});
    }
    for (Shape odd :
         {Shape{8, 8, 256}, Shape{256, 8, 8}, Shape{23, 29, 31}, Shape{1, 64, 64}, Shape{64, 1, 64},
          Shape{64, 64, 1}, Shape{13, 3, 40}, Shape{3, 40, 13}, Shape{2, 5, 1200},
          Shape{1, 1, 3000}, Shape{11, 70, 9}, Shape{40, 17, 60}, Shape{60, 70, 120},
          Shape{24, 40, 1000}, Shape{12, 12, 400}, Shape{24, 8, 400}}) {
      s.push_back(odd);
    }
    return s;
  }();
  return shapes;
}

template <class T>
const std::pair<T, T> kScalings[] = {
    {T(1), T(0)}, {T(1), T(1)}, {T(-1.5), T(0)}, {T(0.75), T(-2.5)}};

template <class T>
bool same_storage(const Matrix<T>& x, const Matrix<T>& y) {
  return x.storage_size() == y.storage_size() &&
         (x.storage_size() == 0 ||
          std::memcmp(x.storage_begin(), y.storage_begin(), x.storage_size() * sizeof(T)) == 0);
}

template <class T>
void run_gemm(const Product<T>& p, Matrix<T>& c) {
  gemm(p.ta, p.tb, p.shape.m, p.shape.n, p.shape.k, p.alpha, p.a.data(), p.a.ld(), p.b.data(),
       p.b.ld(), p.beta, c.data(), c.ld());
}

TEST_CASE_TEMPLATE("small gemm matches the oracle, and the packed path bit for bit", T, float,
                   double) {
  Random random(240);
  Worst worst;
  // The shapes with `pad` elements past each row of every operand, in every form. Quick runs take
  // two of the four scalings per shape, alternating from shape to shape (each scaling still meets
  // half the shapes, small and large; the oracle's long double products made this case 50 of the
  // 196 s of the A64FX's sve suite), and one per pair of transposes, in turn, for the shapes of
  // more than 200,000 multiply-adds (24 x 40 x 1000, 60 x 70 x 120 and 64³: 75% of the work).
  const auto check = [&](const std::vector<Shape>& shapes, std::size_t pad) {
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      const Shape& shape = shapes[s];
      const bool large = shape.m * shape.n * shape.k > 200000;
      for (Trans ta : {Trans::N, Trans::T}) {
        for (Trans tb : {Trans::N, Trans::T}) {
          const std::size_t pair = 2 * std::size_t{ta == Trans::T} + std::size_t{tb == Trans::T};
          for (std::size_t scaling = 0; scaling < std::size(kScalings<T>); ++scaling) {
            if (quick() && (large ? scaling != pair : scaling % 2 != s % 2)) continue;
            const auto& [alpha, beta] = kScalings<T>[scaling];
            const Product<T> p(ta, tb, shape, alpha, beta, pad, 1, random);
            Matrix<T> got = p.c;
            run_gemm(p, got);
            check_product(p, got, "small", worst);
            // The same product with op(B) packed runs the engine's packed microkernel.
            const PackedMatrix<T> packed = pack_b(tb, shape.k, shape.n, p.b.data(), p.b.ld());
            Matrix<T> via_packed = p.c;
            gemm(ta, shape.m, shape.n, shape.k, alpha, p.a.data(), p.a.ld(), packed, beta,
                 via_packed.data(), via_packed.ld());
            CAPTURE(p.describe());
            CHECK(same_storage(got, via_packed));
          }
        }
      }
    }
  };
  check(small_shapes(), 3);
  // A contiguous column of C (ldc == 1, no padding), which the small path runs as a row where
  // op(A) is transposed (GemmSmallOriented): the oracle, and the packed path's column bit for bit.
  check({Shape{2, 1, 5}, Shape{13, 1, 40}, Shape{64, 1, 64}, Shape{300, 1, 9}}, 0);
  report_worst(std::string("gemm_small.") + type_name<T>(), worst, "eps*(|alpha||A||B| + |beta C|)",
               "min(k, 2 sqrt(k) + 8) + 2 (promised: k + 2)");
}

// `count` products of one shape, stored one after the other `gap` elements apart, and the
// expected C of each: one gemm per product.
template <class T>
struct Batch {
  Trans ta, tb;
  Shape s;
  T alpha, beta;
  std::size_t lda, ldb, ldc, stride_a, stride_b, stride_c, count;
  std::vector<T> a, b, c, expected;

  // `c_pad`: elements past each row of C (0: a column of C is contiguous).
  Batch(Trans ta_, Trans tb_, Shape s_, T alpha_, T beta_, std::size_t count_, bool share_a,
        std::size_t c_pad, Random& random)
      : ta(ta_), tb(tb_), s(s_), alpha(alpha_), beta(beta_), count(count_) {
    lda = (ta == Trans::N ? s.k : s.m) + 1;
    ldb = (tb == Trans::N ? s.n : s.k) + 2;
    ldc = s.n + c_pad;
    stride_a = share_a ? 0 : (ta == Trans::N ? s.m : s.k) * lda + 5;
    stride_b = (tb == Trans::N ? s.k : s.n) * ldb + 1;
    stride_c = s.m * ldc + 2;
    a.assign(stride_a * count + (ta == Trans::N ? s.m : s.k) * lda, kNaN<T>);
    b.assign(stride_b * count, kNaN<T>);
    c.assign(stride_c * count, kNaN<T>);
    // Operands inside their matrices; C NaN when beta == 0 (it must not be read); NaN between.
    const auto fill = [&](std::vector<T>& v, std::size_t rows, std::size_t cols, std::size_t ld,
                          std::size_t stride, bool nan) {
      for (std::size_t i = 0; i < (stride == 0 ? 1 : count); ++i) {
        for (std::size_t r = 0; r < rows; ++r) {
          for (std::size_t q = 0; q < cols; ++q) {
            v[i * stride + r * ld + q] = nan ? kNaN<T> : random.uniform<T>(T(-1), T(1));
          }
        }
      }
    };
    fill(a, ta == Trans::N ? s.m : s.k, ta == Trans::N ? s.k : s.m, lda, stride_a, false);
    fill(b, tb == Trans::N ? s.k : s.n, tb == Trans::N ? s.n : s.k, ldb, stride_b, false);
    fill(c, s.m, s.n, ldc, stride_c, beta == T(0));
    expected = c;
    for (std::size_t i = 0; i < count; ++i) {
      gemm(ta, tb, s.m, s.n, s.k, alpha, a.data() + i * stride_a, lda, b.data() + i * stride_b, ldb,
           beta, expected.data() + i * stride_c, ldc);
    }
  }

  std::vector<T> strided() const {
    std::vector<T> out = c;
    gemm_batch_strided(ta, tb, s.m, s.n, s.k, alpha, a.data(), lda, stride_a, b.data(), ldb,
                       stride_b, beta, out.data(), ldc, stride_c, count);
    return out;
  }
  std::vector<T> arrays() const {
    std::vector<T> out = c;
    std::vector<const T*> as, bs;
    std::vector<T*> cs;
    for (std::size_t i = 0; i < count; ++i) {
      as.push_back(a.data() + i * stride_a);
      bs.push_back(b.data() + i * stride_b);
      cs.push_back(out.data() + i * stride_c);
    }
    gemm_batch(ta, tb, s.m, s.n, s.k, alpha, as.data(), lda, bs.data(), ldb, beta, cs.data(), ldc,
               count);
    return out;
  }
  std::string describe() const {
    return std::string("batch.") + type_name<T>() + " " + name_of(ta) + name_of(tb) +
           " m = " + std::to_string(s.m) + ", n = " + std::to_string(s.n) +
           ", k = " + std::to_string(s.k) + ", batch = " + std::to_string(count) +
           ", stride_a = " + std::to_string(stride_a) + ", alpha = " + show(alpha) +
           ", beta = " + show(beta);
  }
};

template <class T>
bool same_bits(const std::vector<T>& x, const std::vector<T>& y) {
  // memcmp takes no null pointer, even for 0 bytes (an empty batch's vectors have none).
  return x.size() == y.size() &&
         (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0);
}

TEST_CASE_TEMPLATE("batches give each product's gemm bits on any thread count", T, float, double) {
  Random random(241);
  // Small products in every form (transposes, alpha and beta, a shared A; products of one tile,
  // which a strided batch of narrow ones runs in one call, 5 x 3 x 6 with a masked tail; one
  // contiguous column of C, which runs as a row where op(A) is transposed); the
  // empty batch and empty products; then, natively (they are large for an emulator), many small
  // products that the threads share in runs, products each large enough for the threads (fewer than
  // threads), and three batches of 40 MiB of operands (48 with the padding), more than the
  // records' stream_bytes (32 MiB), whose products are read a load per line before they run on one
  // thread: order 16 (4096 multiply-adds, streamed_touch_work) where a record reads products of any
  // size first, order 40 (19 or 38 KiB) also where it reads only those of streamed_touch_bytes
  // (avx512's 13 KiB), 256 x 256 x 5 (above small³: one gemm call each, and few multiply-adds
  // per byte) where a record reads those (streamed_touch_large); on more threads, each thread's
  // part is judged on its own (1 and 7 threads for these three: at every count they were 60% of
  // the reference engine's case).
  // Products of `shape` in 48 MiB with the padding (Batch's lda, ldb and ldc).
  const auto streamed = [](Shape s) {
    return (std::size_t{48} << 20) /
           ((s.m * (s.k + 1) + s.k * (s.n + 2) + s.m * (s.n + 3)) * sizeof(T));
  };
  const struct {
    Shape shape;
    std::size_t count;
    bool every_form;
    std::size_t c_pad = 3;  // 0: C's columns contiguous (one column: GemmSmallOriented's row)
  } cases[] = {{{8, 8, 8}, 37, true},
               {{64, 1, 64}, 13, true, 0},
               {{3, 1, 9}, 11, true, 0},
               {{4, 4, 4}, 31, true},
               {{5, 3, 6}, 29, true},
               {{12, 12, 12}, 23, true},
               {{23, 29, 31}, 9, true},
               {{64, 48, 40}, 5, true},
               {{3, 130, 200}, 3, true},
               {{5, 7, 0}, 4, true},
               {{0, 7, 5}, 3, true},
               {{9, 9, 9}, 0, true},
               {{32, 32, 32}, 256, false},
               {{200, 192, 192}, 2, false},
               {{16, 16, 16}, streamed({16, 16, 16}), false},
               {{40, 40, 40}, streamed({40, 40, 40}), false},
               {{256, 256, 5}, streamed({256, 256, 5}), false}};
  // Quick (emulated) runs take 1 and 7 threads: 7 is more threads than most batches have
  // products, and splits 37 unevenly. Under qemu64 the reference's f64 products (compensated, then
  // a software fma each) made the four counts 111 s of the suite's 216; there the array-of-pointers
  // form runs on 7 threads alone (its own loop runs there on each thread's part; how a batch is
  // split among threads does not depend on the form).
  const std::vector<std::size_t> thread_counts =
      quick() ? std::vector<std::size_t>{1, 7} : std::vector<std::size_t>{1, 2, 3, 7};
  // alpha and beta as the tiles' epilogues tell them apart: C not read, read and scaled, and
  // (natively) added on the adders (alpha == beta == 1).
  std::vector<std::pair<T, T>> scalings = {{T(0.75), T(0)}, {T(0.75), T(0.5)}};
  if (!quick()) scalings.emplace_back(T(1), T(1));
  for (const auto& [shape, full_count, every_form, c_pad] : cases) {
    if (!every_form && quick()) continue;
    // Quick runs take two products of the shapes of over 50,000 multiply-adds (64 x 48 x 40 and
    // 3 x 130 x 200: still fewer than 7 threads, and 60% of the case's work under qemu64).
    const std::size_t count = quick() && shape.m * shape.n * shape.k > 50000
                                  ? std::min<std::size_t>(full_count, 2)
                                  : full_count;
    for (Trans ta : {Trans::N, Trans::T}) {
      for (Trans tb : {Trans::N, Trans::T}) {
        for (const auto& [alpha, beta] : scalings) {
          for (bool share_a : {false, true}) {
            if (!every_form && (ta != Trans::N || tb != Trans::T || beta == T(0) || share_a)) {
              continue;
            }
            const Batch<T> batch(ta, tb, shape, alpha, beta, count, share_a, c_pad, random);
            CAPTURE(batch.describe());
            for (std::size_t threads : thread_counts) {
              if (count == streamed(shape) && threads != 1 && threads != 7) continue;
              CAPTURE(threads);
              set_num_threads(threads);
              CHECK(same_bits(batch.strided(), batch.expected));
              if (!quick() || threads == 7) CHECK(same_bits(batch.arrays(), batch.expected));
            }
            set_num_threads(0);
          }
        }
      }
    }
  }
}

TEST_CASE_TEMPLATE("a plan gives gemm's bits, small and large", T, float, double) {
  Random random(242);
  // Small shapes (the engine's gemm called directly) and, natively, one through the driver.
  for (const Shape& shape : {Shape{8, 8, 8}, Shape{23, 29, 31}, Shape{4, 4, 4}, Shape{1, 64, 64},
                             Shape{5, 7, 0}, Shape{200, 190, 210}}) {
    const bool large = shape.m == 200;
    if (large && quick()) continue;
    for (Trans ta : {Trans::N, Trans::T}) {
      for (Trans tb : {Trans::N, Trans::T}) {
        for (const auto& [alpha, beta] : kScalings<T>) {
          if (large && (ta != Trans::T || tb != Trans::N || beta != T(1))) continue;
          const Product<T> p(ta, tb, shape, alpha, beta, 2, 1, random);
          const GemmPlan<T> plan(ta, tb, shape.m, shape.n, shape.k, alpha, p.a.ld(), p.b.ld(), beta,
                                 p.c.ld());
          Matrix<T> expected = p.c, got = p.c;
          run_gemm(p, expected);
          plan(p.a.data(), p.b.data(), got.data());
          CAPTURE(p.describe());
          CHECK(same_storage(got, expected));
          plan(p.a.data(), p.b.data(), got.data());  // a second call, on its own output
          run_gemm(p, expected);
          CHECK(same_storage(got, expected));
        }
      }
    }
  }
}

// The message of the std::invalid_argument `call` throws ("" when it throws none).
template <class F>
std::string refusal(F call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST_CASE_TEMPLATE("batches refuse overlapping C, missing arrays and short rows, changing nothing",
                   T, float, double) {
  std::vector<T> a(64, T(1)), b(64, T(1)), c(256, T(3));
  const std::vector<T> before = c;
  // 2 x 3 products, ldc = 4: a C spans 7 elements; a stride of 5 overlaps C_0 and C_1.
  std::string message = refusal([&] {
    gemm_batch_strided(Trans::N, Trans::N, 2, 3, 2, T(1), a.data(), 2, 4, b.data(), 3, 6, T(0),
                       c.data(), 4, 5, 3);
  });
  CHECK(message.find("coheriq: gemm_batch_strided: stride_c = 5 makes C_0 and C_1 overlap") == 0);
  CHECK(message.find("pass stride_c >= 7") != std::string::npos);
  // Rows interleaved: C_i at column 3·i of rows 12 apart, side by side.
  CHECK_NOTHROW(gemm_batch_strided(Trans::N, Trans::N, 2, 3, 2, T(1), a.data(), 2, 4, b.data(), 3,
                                   6, T(0), c.data(), 12, 3, 4));
  c = before;
  message = refusal([&] {
    gemm_batch_strided(Trans::N, Trans::N, 2, 3, 2, T(1), a.data(), 1, 4, b.data(), 3, 6, T(0),
                       c.data(), 4, 8, 3);
  });
  CHECK(message.find("coheriq: gemm_batch_strided: lda = 1 is smaller than a row of A") == 0);
  message = refusal([&] {
    gemm_batch_strided(Trans::N, Trans::N, 2, 3, 2, T(1), a.data(), 2, ~std::size_t{0} / 4,
                       b.data(), 3, 6, T(0), c.data(), 4, 8, 3);
  });
  CHECK(message.find("coheriq: gemm_batch_strided: A (batch = 3 matrices stride_a") == 0);
  message = refusal([&] {
    gemm_batch(Trans::N, Trans::N, 2, 3, 2, T(1), static_cast<const T* const*>(nullptr), 2,
               static_cast<const T* const*>(nullptr), 3, T(0), static_cast<T* const*>(nullptr), 4,
               2);
  });
  CHECK(message.find("coheriq: gemm_batch: A is a null pointer array with batch = 2") == 0);
  message = refusal([&] { GemmPlan<T>(Trans::T, Trans::N, 2, 3, 4, T(1), 1, 3, T(0), 3); });
  CHECK(message.find("coheriq: GemmPlan: lda = 1 is smaller than a row of A (m = 2 for "
                     "Trans::T); pass lda >= 2") == 0);
  CHECK(same_bits(c, before));
}

}  // namespace
}  // namespace coheriq::kernels::testing
