// numlib: a downstream numeric library built on coheriq::kernels. Its users never see coheriq;
// whichever engine the application enables accelerates numlib too.
#pragma once

#include <cstddef>
#include <vector>

namespace numlib {

// Scales v to unit Euclidean length (no overflow for huge values); returns the old length.
double normalize(std::vector<double>& v);

// Row-major product of a (m x k) and b (k x n).
std::vector<float> matmul(const std::vector<float>& a, const std::vector<float>& b, std::size_t m,
                          std::size_t k, std::size_t n);

}  // namespace numlib
