// Matrices and the GEMM check shared by gemm_test.cpp and packed_test.cpp.
#pragma once

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "support.hpp"

namespace coheriq::kernels::testing {

struct Shape {
  std::size_t m, n, k;
};

// Shapes around register-block and cache-block edges: 1s, odd sizes, lane multiples, k deep
// enough to cross a k-block, odd n == k (a square op(B)), and (natively) one product of a few
// hundred in every dimension.
const std::vector<Shape>& gemm_shapes();
// One large odd product, run natively only (its reference takes a while).
inline constexpr Shape kLargeGemm{131, 257, 515};

// A std::string: doctest prints a const char* as a pointer.
inline std::string name_of(Trans t) { return t == Trans::N ? "N" : "T"; }

// A row-major rows x cols matrix stored with leading dimension ld = cols + pad, `offset`
// elements past a 64-byte boundary. The padding holds `padding` (NaN by default), so a kernel
// that lets the padding into a result is caught.
template <class T>
class Matrix {
 public:
  Matrix(std::size_t rows, std::size_t cols, std::size_t pad, std::size_t offset,
         T padding = kNaN<T>)
      : rows_(rows),
        cols_(cols),
        ld_(cols + pad),
        offset_(offset),
        buffer_(rows * (cols + pad), offset) {
    for (T& v : buffer_) v = padding;
  }
  // The same contents at the same alignment.
  Matrix(const Matrix& other)
      : Matrix(other.rows_, other.cols_, other.ld_ - other.cols_, other.offset_) {
    std::copy(other.buffer_.data(), other.buffer_.data() + other.buffer_.size(), buffer_.data());
  }
  Matrix& operator=(const Matrix&) = delete;

  T& operator()(std::size_t r, std::size_t c) { return buffer_[r * ld_ + c]; }
  T operator()(std::size_t r, std::size_t c) const { return buffer_[r * ld_ + c]; }
  // Element (r, c) of op(this).
  T op(Trans t, std::size_t r, std::size_t c) const {
    return t == Trans::N ? (*this)(r, c) : (*this)(c, r);
  }
  T* data() { return buffer_.data(); }
  const T* data() const { return buffer_.data(); }
  std::size_t ld() const { return ld_; }
  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  // The storage including padding, for checking that padding was not written.
  const T* storage_begin() const { return buffer_.data(); }
  std::size_t storage_size() const { return buffer_.size(); }

  template <class Draw>
  void fill(Draw&& draw) {
    for (std::size_t r = 0; r < rows_; ++r) {
      for (std::size_t c = 0; c < cols_; ++c) (*this)(r, c) = draw();
    }
  }

 private:
  std::size_t rows_, cols_, ld_, offset_;
  Buffer<T> buffer_;
};

// The operands of one product C = alpha·op(A)·op(B) + beta·C.
template <class T>
struct Product {
  Trans ta, tb;
  Shape shape;
  T alpha, beta;
  Matrix<T> a, b, c;  // c: C before the product

  // Random operands in [-1, 1]; C is NaN when beta == 0 (it must not be read). `pad` extra
  // elements per row, data `offset` elements past a 64-byte boundary.
  Product(Trans ta_, Trans tb_, Shape s, T alpha_, T beta_, std::size_t pad, std::size_t offset,
          Random& random)
      : ta(ta_),
        tb(tb_),
        shape(s),
        alpha(alpha_),
        beta(beta_),
        a(ta == Trans::N ? s.m : s.k, ta == Trans::N ? s.k : s.m, pad, offset),
        b(tb == Trans::N ? s.k : s.n, tb == Trans::N ? s.n : s.k, pad, offset),
        c(s.m, s.n, pad, offset, T(-777)) {
    a.fill([&] { return random.uniform<T>(T(-1), T(1)); });
    b.fill([&] { return random.uniform<T>(T(-1), T(1)); });
    c.fill([&] { return beta == T(0) ? kNaN<T> : random.uniform<T>(T(-1), T(1)); });
  }

  std::string describe() const {
    return std::string("gemm.") + type_name<T>() + " " + name_of(ta) + name_of(tb) +
           " m = " + std::to_string(shape.m) + ", n = " + std::to_string(shape.n) +
           ", k = " + std::to_string(shape.k) + ", lda = " + std::to_string(a.ld()) +
           ", ldb = " + std::to_string(b.ld()) + ", ldc = " + std::to_string(c.ld()) +
           ", alpha = " + show(alpha) + ", beta = " + show(beta);
  }
};

// Checks `got` (C after the engine's product) elementwise against the oracle: alpha·op(A)·op(B)
// + beta·C (C not read when beta == 0) in long double loops of the test, not the reference
// engine, which is under test itself in kernels.reference. Bound:
// |got - exact| <= (summation_bound(k) + 2)·eps·(|alpha|·(|A||B|)_ij + |beta·c_ij|)
//                  + (k + 2)·denorm_min,
// i.e. docs/kernels.md's k·eps·|alpha|·|A||B| tightened as for dot (support.hpp), plus the two
// roundings of scaling and adding beta·C, and what gradual underflow may cost. Non-finite
// expected values must be matched exactly; C's padding must be untouched. Updates `worst` in
// units of eps·(|alpha|·(|A||B|)_ij + |beta·c_ij|).
template <class T>
void check_product(const Product<T>& p, const Matrix<T>& got, const std::string& what,
                   Worst& worst);

}  // namespace coheriq::kernels::testing
