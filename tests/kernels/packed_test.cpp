// PackedMatrix and packed GEMM: pack_b then gemm agrees with the oracle's product (and with
// the engine's unpacked gemm) for every transpose, shape and scaling; the object reports its
// shape and engine, is 64-byte aligned, moves, and rejects sizes it was not packed with.
#include <doctest/doctest.h>

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gemm_support.hpp"
#include "kernels/packed_access.hpp"
#include "reference/reference.hpp"

namespace coheriq::kernels::testing {
namespace {

// The C++ face of a candidate class (docs/kernels.md).
static_assert(std::is_final_v<PackedMatrix<float>> && std::is_final_v<PackedMatrix<double>>);
static_assert(!std::is_copy_constructible_v<PackedMatrix<float>> &&
              !std::is_copy_assignable_v<PackedMatrix<float>>);
static_assert(std::is_nothrow_move_constructible_v<PackedMatrix<double>> &&
              std::is_nothrow_move_assignable_v<PackedMatrix<double>>);
static_assert(!std::is_default_constructible_v<PackedMatrix<float>>);

template <class T>
PackedMatrix<T> pack(const Product<T>& p) {
  return pack_b(p.tb, p.shape.k, p.shape.n, p.b.data(), p.b.ld());
}

template <class T>
void run_packed(const Product<T>& p, const PackedMatrix<T>& packed, Matrix<T>& c) {
  gemm(p.ta, p.shape.m, p.shape.n, p.shape.k, p.alpha, p.a.data(), p.a.ld(), packed, p.beta,
       c.data(), c.ld());
}

template <class T>
void check_packed_matrix(const PackedMatrix<T>& packed, const Shape& shape) {
  CHECK(packed.rows() == shape.k);
  CHECK(packed.cols() == shape.n);
  CHECK(packed.engine() == engine());
  // Any lossless layout holds k·n elements; the memory is the baseline's, 64-byte aligned.
  CHECK(packed.bytes() >= shape.k * shape.n * sizeof(T));
  const auto address = reinterpret_cast<std::uintptr_t>(PackedAccess<T>::data(packed));
  CHECK(address % 64 == 0);
}

TEST_CASE_TEMPLATE("pack_b then gemm matches the oracle, and so does the unpacked gemm", T, float,
                   double) {
  Random random(40);
  Worst worst;
  for (const Shape& shape : gemm_shapes()) {
    for (Trans tb : {Trans::N, Trans::T}) {
      for (std::size_t pad : {std::size_t{0}, std::size_t{3}}) {
        // One packed B serves several products: each transpose of A, several scalings.
        const Product<T> first(Trans::N, tb, shape, T(1), T(0), pad, pad % 2, random);
        const PackedMatrix<T> packed = pack(first);
        {
          // Only the packing: a failed product names itself (check_product), not this one.
          INFO("pack_b ", name_of(tb), " k = ", shape.k, ", n = ", shape.n,
               ", ldb = ", first.b.ld());
          check_packed_matrix(packed, shape);
        }
        for (Trans ta : {Trans::N, Trans::T}) {
          for (auto [alpha, beta] : {std::pair<T, T>{T(1), T(0)}, {T(-0.5), T(2)}}) {
            Product<T> p(ta, tb, shape, alpha, beta, pad, pad % 2, random);
            // The B that was packed (same shape and layout, so the storage copies as is).
            std::copy(first.b.storage_begin(), first.b.storage_begin() + first.b.storage_size(),
                      p.b.data());
            Matrix<T> got = p.c;
            run_packed(p, packed, got);
            check_product(p, got, "packed", worst);
            Matrix<T> unpacked = p.c;
            gemm(p.ta, p.tb, shape.m, shape.n, shape.k, p.alpha, p.a.data(), p.a.ld(), p.b.data(),
                 p.b.ld(), p.beta, unpacked.data(), unpacked.ld());
            check_product(p, unpacked, "unpacked", worst);
          }
        }
      }
    }
  }
  report_worst(std::string("gemm packed.") + type_name<T>(), worst,
               "eps*(|alpha||A||B| + |beta C|)", "min(k, 2 sqrt(k) + 8) + 2 (promised: k + 2)");
}

TEST_CASE_TEMPLATE("pack_b of a B larger than the caches (written around them) round-trips", T,
                   float, double) {
  // Engines may pack large matrices with non-temporal stores (the generic engines past 8 MiB):
  // op(B) here is 2003 x 1100, over 8 MiB packed in either type. Under the emulator one row of C
  // (its long double oracle is software arithmetic there: 5 rows took a minute).
  Random random(42);
  Worst worst;
  const Shape shape{quick() ? std::size_t{1} : std::size_t{5}, 1100, 2003};
  for (Trans tb : {Trans::N, Trans::T}) {
    const Product<T> p(Trans::N, tb, shape, T(1), T(0), 1, 0, random);
    CAPTURE(p.describe());
    const PackedMatrix<T> packed = pack(p);
    check_packed_matrix(packed, shape);
    Matrix<T> got = p.c;
    run_packed(p, packed, got);
    check_product(p, got, "packed, large", worst);
  }
  report_worst(std::string("gemm packed large.") + type_name<T>(), worst,
               "eps*(|alpha||A||B| + |beta C|)", "min(k, 2 sqrt(k) + 8) + 2 (promised: k + 2)");
}

TEST_CASE_TEMPLATE("PackedMatrix moves, and empty packs work", T, float, double) {
  Random random(41);
  const Shape shape{9, 17, 13};
  const Product<T> p(Trans::N, Trans::T, shape, T(1), T(0), 1, 1, random);
  Worst ignored;

  PackedMatrix<T> original = pack(p);
  const std::size_t bytes = original.bytes();
  PackedMatrix<T> moved(std::move(original));
  CHECK(original.rows() == 0);  // NOLINT(bugprone-use-after-move): the moved-from state
  CHECK(original.cols() == 0);
  CHECK(original.bytes() == 0);
  CHECK(original.engine().empty());
  CHECK(moved.bytes() == bytes);
  Matrix<T> got = p.c;
  run_packed(p, moved, got);
  check_product(p, got, "move-constructed", ignored);

  // Move assignment over a live matrix releases the old memory (ASan builds check it).
  PackedMatrix<T> other = pack_b(Trans::N, 2, 3, p.b.data(), p.b.ld());
  other = std::move(moved);
  CHECK(other.rows() == shape.k);
  CHECK(other.cols() == shape.n);
  Matrix<T> again = p.c;
  run_packed(p, other, again);
  check_product(p, again, "move-assigned", ignored);

  // k == 0 or n == 0: a valid, possibly memoryless, matrix.
  for (Shape empty : {Shape{4, 5, 0}, Shape{4, 0, 5}}) {
    const Product<T> q(Trans::N, Trans::N, empty, T(1), T(2), 1, 0, random);
    const PackedMatrix<T> packed = pack(q);
    CHECK(packed.rows() == empty.k);
    CHECK(packed.cols() == empty.n);
    Matrix<T> c = q.c;
    run_packed(q, packed, c);
    check_product(q, c, "empty pack", ignored);
  }
}

TEST_CASE("the reference layout is op(B) row-major k x n, contiguous") {
  const std::size_t k = 3, n = 4, ld = 6;
  std::vector<double> b(n * ld);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = double(i);
  CHECK(reference::packed_bytes<double>(k, n) == k * n * sizeof(double));
  std::vector<double> packed(k * n);
  reference::pack_b(Trans::T, k, n, b.data(), ld, packed.data(), 0, 1);  // op(B)(p, j) = B(j, p)
  for (std::size_t p = 0; p < k; ++p) {
    for (std::size_t j = 0; j < n; ++j) CHECK(packed[p * n + j] == b[j * ld + p]);
  }
  reference::pack_b(Trans::N, k, n, b.data(), ld, packed.data(), 0, 1);
  for (std::size_t p = 0; p < k; ++p) {
    for (std::size_t j = 0; j < n; ++j) CHECK(packed[p * n + j] == b[p * ld + j]);
  }
}

// A buffer of `bytes` bytes, 64-byte aligned as the engines' packed layouts require, filled with
// `marker`.
class Aligned {
 public:
  Aligned(std::size_t bytes, unsigned char marker) : raw_(bytes + 64, marker), bytes_(bytes) {}
  unsigned char* data() {
    const auto address = reinterpret_cast<std::uintptr_t>(raw_.data());
    return raw_.data() + (64 - address % 64) % 64;
  }
  unsigned char& operator[](std::size_t i) { return data()[i]; }
  bool operator==(Aligned& other) {
    return std::equal(data(), data() + bytes_, other.data(), other.data() + other.bytes_);
  }

 private:
  std::vector<unsigned char> raw_;
  std::size_t bytes_;
};

// The threads of a gemm pack op(B) in parts, each its own bytes (src/kernels/api.cpp): for every
// split, the parts together must write exactly what one part writes, and no two parts may write
// the same byte (each part is packed twice, over two different markers: the bytes it wrote are
// those where both copies agree).
TEST_CASE_TEMPLATE("pack_b in parts writes the same bytes as in one part", T, float, double) {
  using Pack = std::conditional_t<std::is_same_v<T, float>, cand::pack_b_f32, cand::pack_b_f64>;
  using Bytes =
      std::conditional_t<std::is_same_v<T, float>, cand::packed_bytes_f32, cand::packed_bytes_f64>;
  Random random(44);
  for (const Shape& shape :
       {Shape{0, 1, 1}, Shape{0, 7, 5}, Shape{0, 33, 130}, Shape{0, 97, 600}, Shape{0, 520, 37}}) {
    for (Trans tb : {Trans::N, Trans::T}) {
      CAPTURE(shape.n);
      CAPTURE(shape.k);
      CAPTURE(name_of(tb));
      const Product<T> p(Trans::N, tb, shape, T(1), T(0), 0, 2, random);
      const std::size_t bytes = coheriq::call<Domain, Bytes>(shape.k, shape.n);
      const auto pack = [&](Aligned& into, std::size_t part, std::size_t parts) {
        coheriq::call<Domain, Pack>(tb, shape.k, shape.n, p.b.data(), p.b.ld(), into.data(), part,
                                    parts);
      };
      Aligned whole(bytes, 0xA5);
      pack(whole, 0, 1);
      for (std::size_t parts : {2, 3, 7}) {
        CAPTURE(parts);
        Aligned merged(bytes, 0xA5);
        std::size_t written_twice = 0;
        std::vector<bool> written(bytes, false);
        for (std::size_t part = 0; part < parts; ++part) {
          Aligned mine(bytes, 0xA5), again(bytes, 0x5A);
          pack(mine, part, parts);
          pack(again, part, parts);
          for (std::size_t i = 0; i < bytes; ++i) {
            if (mine[i] != again[i]) continue;  // not written by this part
            merged[i] = mine[i];
            written_twice += written[i] ? 1 : 0;
            written[i] = true;
          }
        }
        CHECK_MESSAGE(merged == whole, "the parts together differ from the whole");
        CHECK_MESSAGE(written_twice == 0, written_twice << " bytes were written by two parts");
      }
    }
  }
}

template <class Call>
std::string invalid_argument_message(Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "<no std::invalid_argument>";
}

TEST_CASE_TEMPLATE("packed gemm rejects k, n, lda and ldc that do not fit, naming them", T, float,
                   double) {
  Random random(42);
  const Shape shape{3, 4, 5};
  for (Trans ta : {Trans::N, Trans::T}) {
    Product<T> p(ta, Trans::N, shape, T(1), T(0), 0, 0, random);
    const PackedMatrix<T> packed = pack(p);
    const Matrix<T> before = p.c;
    auto call = [&](std::size_t k, std::size_t n, std::size_t lda, std::size_t ldc) {
      return invalid_argument_message(
          [&] { gemm(ta, shape.m, n, k, T(1), p.a.data(), lda, packed, T(0), p.c.data(), ldc); });
    };
    const std::size_t lda = p.a.ld();
    const std::string k_message = call(6, 4, 8, 4);
    CHECK_MESSAGE(k_message.rfind("coheriq: gemm: k = 6 differs from B.rows() = 5", 0) == 0,
                  k_message);
    const std::string n_message = call(5, 3, lda, 4);
    CHECK_MESSAGE(n_message.rfind("coheriq: gemm: n = 3 differs from B.cols() = 4", 0) == 0,
                  n_message);
    const std::string lda_message = call(5, 4, lda - 1, 4);
    CHECK_MESSAGE(lda_message.rfind("coheriq: gemm: lda = " + std::to_string(lda - 1), 0) == 0,
                  lda_message);
    const std::string ldc_message = call(5, 4, lda, 3);
    CHECK_MESSAGE(ldc_message.rfind("coheriq: gemm: ldc = 3", 0) == 0, ldc_message);
    for (std::size_t i = 0; i < before.storage_size(); ++i) {
      CHECK(same(p.c.storage_begin()[i], before.storage_begin()[i]));
    }
  }
}

// Sizes no array can have (more than PTRDIFF_MAX bytes): A and C are checked as gemm checks them,
// over small real arrays, so a missing check would fault.
TEST_CASE_TEMPLATE("packed gemm rejects A and C larger than any array, naming their sizes", T,
                   float, double) {
  std::vector<T> a(16, T(1)), b(16, T(1)), c(16, T(7));
  const PackedMatrix<T> packed = pack_b(Trans::N, 1, 1, b.data(), 1);
  const std::string max = std::to_string(std::numeric_limits<std::size_t>::max());
  const std::string a_message = invalid_argument_message([&] {
    gemm(Trans::N, std::numeric_limits<std::size_t>::max(), 1, 1, T(1), a.data(), 1, packed, T(0),
         c.data(), 1);
  });
  CHECK_MESSAGE(a_message.rfind("coheriq: gemm: A (m = " + max + " rows of k = 1 elements", 0) == 0,
                a_message);
  // (m − 1)·ldc overflows std::size_t; A (Trans::T: k rows of m) is small.
  const std::string c_message = invalid_argument_message([&] {
    gemm(Trans::T, 3, 1, 1, T(1), a.data(), 3, packed, T(0), c.data(), std::size_t{1} << 63);
  });
  CHECK_MESSAGE(c_message.rfind("coheriq: gemm: C (m = 3 rows of n = 1 elements, ldc = ", 0) == 0,
                c_message);
  CHECK(std::all_of(c.begin(), c.end(), [](T v) { return v == T(7); }));
}

}  // namespace
}  // namespace coheriq::kernels::testing
