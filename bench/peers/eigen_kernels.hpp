// Eigen 3 kernels over raw buffers (Eigen::Map), compiled in their own translation unit with the
// ISA flags of COHERIQ_BENCH_EIGEN_FLAGS. Only these plain functions cross the TU boundary, so
// nothing Eigen instantiates there is shared with the baseline code of the harness.
#pragma once

#include <cstddef>

namespace coheriq_bench::eigen_kernels {

float dot(std::size_t n, const float* x, const float* y);
double dot(std::size_t n, const double* x, const double* y);
void axpy(std::size_t n, float a, const float* x, float* y);
void axpy(std::size_t n, double a, const double* x, double* y);
void scal(std::size_t n, float a, float* x);
void scal(std::size_t n, double a, double* x);
float sum(std::size_t n, const float* x);
double sum(std::size_t n, const double* x);
float asum(std::size_t n, const float* x);
double asum(std::size_t n, const double* x);
// stableNorm(): Eigen's norm without overflow or underflow, the same contract as coheriq nrm2.
float nrm2(std::size_t n, const float* x);
double nrm2(std::size_t n, const double* x);
std::size_t iamax(std::size_t n, const float* x);
std::size_t iamax(std::size_t n, const double* x);

void exp(std::size_t n, const float* x, float* y);
void log(std::size_t n, const float* x, float* y);
void tanh(std::size_t n, const float* x, float* y);
void sigmoid(std::size_t n, const float* x, float* y);  // Eigen's logistic()
void softmax(std::size_t n, const float* x, float* y);  // exp(x - max) / sum

// Row-major square C = A * B.
void gemm(std::size_t n, const float* a, const float* b, float* c);
void gemm(std::size_t n, const double* a, const double* b, double* c);

// Eigen's version and the SIMD instruction sets this TU was compiled for.
const char* version();
const char* simd();

}  // namespace coheriq_bench::eigen_kernels
