// The reference engine: the kernels domain's own implementation of every candidate, and
// Domain::reference(), through which the framework finds it.
//
// A constant-initialized table, like every engine's: reading it runs no code.
#include <cstddef>
#include <iterator>

#include "kernels/candidates.hpp"
#include "reference/reference.hpp"

namespace coheriq::kernels {
namespace reference {
namespace {

using coheriq::implement;

constexpr coheriq::Override table[] = {
    // ------------------------------ BLAS-1 (blas1.cpp)
    implement<cand::dot_f32, &dot<float>>(),
    implement<cand::dot_f64, &dot<double>>(),
    implement<cand::axpy_f32, &axpy<float>>(),
    implement<cand::axpy_f64, &axpy<double>>(),
    implement<cand::scal_f32, &scal<float>>(),
    implement<cand::scal_f64, &scal<double>>(),
    implement<cand::sum_f32, &sum<float>>(),
    implement<cand::sum_f64, &sum<double>>(),
    implement<cand::asum_f32, &asum<float>>(),
    implement<cand::asum_f64, &asum<double>>(),
    implement<cand::nrm2_f32, &nrm2<float>>(),
    implement<cand::nrm2_f64, &nrm2<double>>(),
    implement<cand::iamax_f32, &iamax<float>>(),
    implement<cand::iamax_f64, &iamax<double>>(),
    // ------------------------------ Vector math (math.cpp)
    implement<cand::exp_f32, &exp>(),
    implement<cand::log_f32, &log>(),
    implement<cand::tanh_f32, &tanh>(),
    implement<cand::sigmoid_f32, &sigmoid>(),
    implement<cand::softmax_f32, &softmax>(),
    // ------------------------------ GEMM and packing (gemm.cpp)
    implement<cand::gemm_workspace_f32, &gemm_workspace<float>>(),
    implement<cand::gemm_workspace_f64, &gemm_workspace<double>>(),
    implement<cand::gemm_f32, &gemm<float>>(),
    implement<cand::gemm_f64, &gemm<double>>(),
    implement<cand::packed_bytes_f32, &packed_bytes<float>>(),
    implement<cand::packed_bytes_f64, &packed_bytes<double>>(),
    implement<cand::pack_b_f32, &pack_b<float>>(),
    implement<cand::pack_b_f64, &pack_b<double>>(),
    implement<cand::gemm_packed_f32, &gemm_packed<float>>(),
    implement<cand::gemm_packed_f64, &gemm_packed<double>>(),
};

// The framework checks at materialization that the reference covers every candidate; checking
// the count here as well turns a forgotten entry into a compile error.
template <class List>
struct list_size;
template <class... Candidates>
struct list_size<coheriq::list<Candidates...>> {
  static constexpr std::size_t value = sizeof...(Candidates);
};
static_assert(std::size(table) == list_size<Domain::candidates>::value,
              "the reference engine implements every candidate of the domain");

}  // namespace

extern const coheriq::OverrideTable overrides = coheriq::table_of(table);

}  // namespace reference

const coheriq::OverrideTable& Domain::reference() { return reference::overrides; }

}  // namespace coheriq::kernels
