// The C API (<coheriq/coheriq.h>): each function runs its C++ counterpart and turns an exception
// into a status code and this thread's message. Part of coheriq::kernels.
#include <coheriq/coheriq.h>
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/kernels_domain.hpp>

#include <cstddef>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.hpp"

namespace {

namespace k = coheriq::kernels;

thread_local std::string last_error;

int fail(int status, std::string message) {
  last_error = std::move(message);
  return status;
}

// The C++ API's argument errors name its function ("coheriq: gemm: lda = 3 ..."); the C caller
// called `function` (coheriq_sgemm), so that is the name the message shows.
std::string renamed(const std::string& message, const char* function) {
  constexpr std::string_view head = "coheriq: ";
  if (message.compare(0, head.size(), head) != 0) return message;
  const std::size_t end = message.find(": ", head.size());
  if (end == std::string::npos) return message;
  const std::string_view name = std::string_view(message).substr(head.size(), end - head.size());
  if (name.empty() ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string_view::npos) {
    return message;
  }
  return std::string(head) + function + message.substr(end);
}

// Runs f for the C function `function`, mapping what it throws to a status; f's results are
// written by f itself, last.
template <class F>
int run(const char* function, F f) noexcept {
  try {
    f();
    return COHERIQ_OK;
  } catch (const coheriq::UnknownDomainError& e) {
    return fail(COHERIQ_ERROR_UNKNOWN_DOMAIN, e.what());
  } catch (const coheriq::UnknownEngineError& e) {
    return fail(COHERIQ_ERROR_UNKNOWN_ENGINE, e.what());
  } catch (const coheriq::UnsupportedEngineError& e) {
    return fail(COHERIQ_ERROR_UNSUPPORTED_ENGINE, e.what());
  } catch (const coheriq::EngineLockedError& e) {
    return fail(COHERIQ_ERROR_ENGINE_LOCKED, e.what());
  } catch (const coheriq::CompositionError& e) {
    return fail(COHERIQ_ERROR_COMPOSITION, e.what());
  } catch (const coheriq::PluginError& e) {
    return fail(COHERIQ_ERROR_PLUGIN, e.what());
  } catch (const std::invalid_argument& e) {
    return fail(COHERIQ_ERROR_INVALID_ARGUMENT, renamed(e.what(), function));
  } catch (const std::bad_alloc&) {
    return fail(
        COHERIQ_ERROR_OUT_OF_MEMORY,
        std::string("coheriq: ") + function + ": out of memory; free memory or use smaller sizes");
  } catch (const std::exception& e) {
    return fail(COHERIQ_ERROR_OTHER, e.what());
  } catch (...) {
    return fail(COHERIQ_ERROR_OTHER, std::string("coheriq: ") + function + ": unexpected error");
  }
}

[[noreturn]] void throw_invalid(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string("coheriq: ") + function + ": " + what);
}

void require(const void* p, const char* function, const char* argument) {
  if (p == nullptr) {
    throw_invalid(function, std::string(argument) + " is NULL; pass a valid pointer");
  }
}

// What C++ cannot express: a NULL array where the call reads or writes elements. (Sizes are
// checked by the C++ API.) A vector is read when n > 0.
void require_vector(const void* p, std::size_t n, const char* function, const char* argument) {
  if (p == nullptr && n > 0) {
    throw_invalid(function, std::string(argument) + " is NULL with n = " + std::to_string(n) +
                                "; pass its " + std::to_string(n) +
                                " elements (NULL only with n = 0)");
  }
}

// require_vector for every array of a call written as a row's argument list, "(n, x, y)": the
// arrays are the arguments after n, named in `names` as the C header names them.
struct RequireArrays {
  const char* function;
  const char* names;

  template <class... T>
  void operator()(std::size_t n, const T*... arrays) const {
    std::size_t i = 0;
    (check(n, arrays, ++i), ...);
  }
  void check(std::size_t n, const void* array, std::size_t i) const {
    if (array != nullptr || n == 0) return;
    std::string name;  // argument i of "(n, x, y)", counting n as 0
    std::size_t k = 0;
    for (const char* c = names; *c != '\0'; ++c) {
      if (*c == ',') {
        ++k;
      } else if (k == i && *c != ' ' && *c != ')') {
        name += *c;
      }
    }
    require_vector(array, n, function, name.c_str());
  }
};

// NUL-terminated `text` into buf[0, size), or BUFFER_TOO_SMALL with buf untouched.
int copy_out(const char* function, const std::string& text, char* buf, std::size_t size) {
  if (buf == nullptr) {
    return fail(COHERIQ_ERROR_INVALID_ARGUMENT,
                std::string("coheriq: ") + function + ": buf is NULL; pass a buffer");
  }
  if (text.size() + 1 > size) {
    return fail(COHERIQ_ERROR_BUFFER_TOO_SMALL,
                std::string("coheriq: ") + function + ": " + coheriq::detail::quoted(text) +
                    " needs " + std::to_string(text.size() + 1) + " bytes, size is " +
                    std::to_string(size) + "; pass a larger buffer");
  }
  std::memcpy(buf, text.c_str(), text.size() + 1);
  return COHERIQ_OK;
}

k::Trans trans_of(int t, const char* function, const char* argument) {
  if (t == COHERIQ_NO_TRANS) return k::Trans::N;
  if (t == COHERIQ_TRANS) return k::Trans::T;
  throw_invalid(function, std::string(argument) + " = " + std::to_string(t) +
                              " is not a coheriq_trans; pass COHERIQ_NO_TRANS or COHERIQ_TRANS");
}

template <class R, class F>
int result_of(const char* function, R* result, F f) {
  return run(function, [&] {
    require(result, function, "result");
    const R value = f();
    *result = value;
  });
}

// coheriq_?gemm: A and B are read when the product has terms (m, n and k > 0), C written when
// it has elements (m and n > 0); NULL is allowed otherwise.
// A GEMM's A, B and C (or their pointer arrays) are NULL only when there is nothing to read or
// write in them. `also` follows the sizes in the message (", batch > 0").
void require_matrices(const char* function, std::size_t m, std::size_t n, std::size_t k,
                      const void* A, const void* B, const void* C, const char* also) {
  const std::string sizes = "m = " + std::to_string(m) + ", n = " + std::to_string(n) +
                            ", k = " + std::to_string(k) + also;
  const auto require = [&](const void* p, bool used, const char* argument, const char* allowed) {
    if (p == nullptr && used) {
      throw_invalid(function, std::string(argument) + " is NULL with " + sizes +
                                  "; pass the matrix (NULL only when " + allowed + ")");
    }
  };
  require(A, m > 0 && n > 0 && k > 0, "A", "m, n or k is 0");
  require(B, m > 0 && n > 0 && k > 0, "B", "m, n or k is 0");
  require(C, m > 0 && n > 0, "C", "m or n is 0");
}

template <class T>
int gemm(const char* function, int ta, int tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
         const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc) {
  return run(function, [&] {
    const k::Trans op_a = trans_of(ta, function, "ta"), op_b = trans_of(tb, function, "tb");
    require_matrices(function, m, n, k, A, B, C, "");
    k::gemm(op_a, op_b, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  });
}

// The batches: the matrices (strided) or the pointer arrays, when there are products.
template <class T>
int gemm_batch_strided(const char* function, int ta, int tb, std::size_t m, std::size_t n,
                       std::size_t k, T alpha, const T* A, std::size_t lda, std::size_t stride_a,
                       const T* B, std::size_t ldb, std::size_t stride_b, T beta, T* C,
                       std::size_t ldc, std::size_t stride_c, std::size_t batch) {
  return run(function, [&] {
    const k::Trans op_a = trans_of(ta, function, "ta"), op_b = trans_of(tb, function, "tb");
    if (batch > 0) require_matrices(function, m, n, k, A, B, C, ", batch > 0");
    k::gemm_batch_strided(op_a, op_b, m, n, k, alpha, A, lda, stride_a, B, ldb, stride_b, beta, C,
                          ldc, stride_c, batch);
  });
}
template <class T>
int gemm_batch(const char* function, int ta, int tb, std::size_t m, std::size_t n, std::size_t k,
               T alpha, const T* const* A, std::size_t lda, const T* const* B, std::size_t ldb,
               T beta, T* const* C, std::size_t ldc, std::size_t batch) {
  return run(function, [&] {
    const k::Trans op_a = trans_of(ta, function, "ta"), op_b = trans_of(tb, function, "tb");
    if (batch > 0) require_matrices(function, m, n, k, A, B, C, ", batch > 0");
    k::gemm_batch(op_a, op_b, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch);
  });
}

}  // namespace

extern "C" {

const char* coheriq_last_error(void) { return last_error.c_str(); }

int coheriq_enable_engine(const char* domain, const char* engine) {
  return run("coheriq_enable_engine", [&] {
    require(domain, "coheriq_enable_engine", "domain");
    require(engine, "coheriq_enable_engine", "engine");
    coheriq::enable_engine(domain, engine);
  });
}

int coheriq_active_engine(const char* domain, char* buf, size_t size) {
  std::string name;
  const int status = run("coheriq_active_engine", [&] {
    require(domain, "coheriq_active_engine", "domain");
    name = coheriq::active_engine(domain);
  });
  return status != COHERIQ_OK ? status : copy_out("coheriq_active_engine", name, buf, size);
}

int coheriq_enable_reproducible(const char* domain) {
  return run("coheriq_enable_reproducible", [&] {
    require(domain, "coheriq_enable_reproducible", "domain");
    coheriq::enable_reproducible(domain);
  });
}

int coheriq_reproducible(const char* domain, int* on) {
  return result_of("coheriq_reproducible", on, [&] {
    require(domain, "coheriq_reproducible", "domain");
    return coheriq::reproducible(domain) ? 1 : 0;
  });
}

int coheriq_engine_count(const char* domain, size_t* count) {
  return result_of("coheriq_engine_count", count, [&] {
    require(domain, "coheriq_engine_count", "domain");
    return coheriq::engines(domain).size();
  });
}

int coheriq_engine_name(const char* domain, size_t index, char* buf, size_t size) {
  std::string name;
  const int status = run("coheriq_engine_name", [&] {
    require(domain, "coheriq_engine_name", "domain");
    const std::vector<coheriq::EngineInfo> all = coheriq::engines(domain);
    if (index >= all.size()) {
      throw std::invalid_argument("coheriq: coheriq_engine_name: index " + std::to_string(index) +
                                  " is past the " + std::to_string(all.size()) +
                                  " engines; pass an index below coheriq_engine_count");
    }
    name = all[index].name;
  });
  return status != COHERIQ_OK ? status : copy_out("coheriq_engine_name", name, buf, size);
}

int coheriq_engine_supported(const char* domain, const char* engine, int* supported) {
  return result_of("coheriq_engine_supported", supported, [&] {
    require(domain, "coheriq_engine_supported", "domain");
    require(engine, "coheriq_engine_supported", "engine");
    for (const coheriq::EngineInfo& e : coheriq::engines(domain)) {
      if (e.name == engine) return e.supported ? 1 : 0;
    }
    // The names are the caller's: escaped and cut, as every echoed value.
    throw coheriq::UnknownEngineError(
        "coheriq: coheriq_engine_supported: no engine " + coheriq::detail::quoted(engine) +
        " in domain " + coheriq::detail::quoted(domain) + "; list them with coheriq_engine_name");
  });
}

int coheriq_set_num_threads(size_t n) {
  return run("coheriq_set_num_threads", [&] { k::set_num_threads(n); });
}
int coheriq_num_threads(size_t* n) {
  return result_of("coheriq_num_threads", n, [] { return k::num_threads(); });
}

// ------------------------------ Kernels
// Each checks what C++ cannot express (NULL where elements are read or written), then runs its
// C++ counterpart, which checks the sizes. `f` is the function's name, for the messages.

// The BLAS-1 functions of one element type T, named with its letter P (s or d).
#define COHERIQ_C_BLAS1(P, T)                                                                      \
  int coheriq_##P##dot(size_t n, const T* x, const T* y, T* result) {                              \
    const char* f = __func__;                                                                      \
    return result_of(f, result, [&] {                                                              \
      require_vector(x, n, f, "x");                                                                \
      require_vector(y, n, f, "y");                                                                \
      return k::dot(n, x, y);                                                                      \
    });                                                                                            \
  }                                                                                                \
  int coheriq_##P##dot_strided(size_t n, const T* x, ptrdiff_t incx, const T* y, ptrdiff_t incy,   \
                               T* result) {                                                        \
    const char* f = __func__;                                                                      \
    return result_of(f, result, [&] {                                                              \
      require_vector(x, n, f, "x");                                                                \
      require_vector(y, n, f, "y");                                                                \
      return k::dot_strided(n, x, incx, y, incy);                                                  \
    });                                                                                            \
  }                                                                                                \
  int coheriq_##P##axpy(size_t n, T a, const T* x, T* y) {                                         \
    const char* f = __func__;                                                                      \
    return run(f, [&] {                                                                            \
      require_vector(x, n, f, "x");                                                                \
      require_vector(y, n, f, "y");                                                                \
      k::axpy(n, a, x, y);                                                                         \
    });                                                                                            \
  }                                                                                                \
  int coheriq_##P##axpy_strided(size_t n, T a, const T* x, ptrdiff_t incx, T* y, ptrdiff_t incy) { \
    const char* f = __func__;                                                                      \
    return run(f, [&] {                                                                            \
      require_vector(x, n, f, "x");                                                                \
      require_vector(y, n, f, "y");                                                                \
      k::axpy_strided(n, a, x, incx, y, incy);                                                     \
    });                                                                                            \
  }                                                                                                \
  int coheriq_##P##scal(size_t n, T a, T* x) {                                                     \
    const char* f = __func__;                                                                      \
    return run(f, [&] {                                                                            \
      require_vector(x, n, f, "x");                                                                \
      k::scal(n, a, x);                                                                            \
    });                                                                                            \
  }                                                                                                \
  int coheriq_##P##scal_strided(size_t n, T a, T* x, ptrdiff_t incx) {                             \
    const char* f = __func__;                                                                      \
    return run(f, [&] {                                                                            \
      require_vector(x, n, f, "x");                                                                \
      k::scal_strided(n, a, x, incx);                                                              \
    });                                                                                            \
  }                                                                                                \
  COHERIQ_C_REDUCE(coheriq_##P##sum, T, T, k::sum(n, x))                                           \
  COHERIQ_C_REDUCE(coheriq_##P##asum, T, T, k::asum(n, x))                                         \
  COHERIQ_C_REDUCE(coheriq_##P##nrm2, T, T, k::nrm2(n, x))                                         \
  COHERIQ_C_REDUCE(coheriq_i##P##amax, T, size_t, k::iamax(n, x))                                  \
  COHERIQ_C_REDUCE_STRIDED(coheriq_##P##asum_strided, T, T, k::asum_strided(n, x, incx))           \
  COHERIQ_C_REDUCE_STRIDED(coheriq_##P##nrm2_strided, T, T, k::nrm2_strided(n, x, incx))           \
  COHERIQ_C_REDUCE_STRIDED(coheriq_i##P##amax_strided, T, size_t, k::iamax_strided(n, x, incx))
// A reduction of x (elements of type T) to one value of type R.
#define COHERIQ_C_REDUCE(name, T, R, call)    \
  int name(size_t n, const T* x, R* result) { \
    const char* f = __func__;                 \
    return result_of(f, result, [&] {         \
      require_vector(x, n, f, "x");           \
      return call;                            \
    });                                       \
  }
#define COHERIQ_C_REDUCE_STRIDED(name, T, R, call)            \
  int name(size_t n, const T* x, ptrdiff_t incx, R* result) { \
    const char* f = __func__;                                 \
    return result_of(f, result, [&] {                         \
      require_vector(x, n, f, "x");                           \
      return call;                                            \
    });                                                       \
  }
COHERIQ_C_BLAS1(s, float)
COHERIQ_C_BLAS1(d, double)
#undef COHERIQ_C_REDUCE_STRIDED
#undef COHERIQ_C_REDUCE
#undef COHERIQ_C_BLAS1

// The vector math, one C function per row of COHERIQ_KERNELS_MATH: coheriq_vs<op> (float) and
// coheriq_vd<op> (double), each array checked under the name the row (and the C header) gives it.
#define COHERIQ_CAPI_PREFIX_f32 vs
#define COHERIQ_CAPI_PREFIX_f64 vd
#define COHERIQ_CAPI_NAME(prefix, op) COHERIQ_CAPI_PASTE(prefix, op)
#define COHERIQ_CAPI_PASTE(prefix, op) coheriq_##prefix##op
#define COHERIQ_CAPI_MATH(op, S, impl, touched, R, params, args) \
  int COHERIQ_CAPI_NAME(COHERIQ_CAPI_PREFIX_##S, op) params {    \
    const char* f = __func__;                                    \
    return run(f, [&] {                                          \
      RequireArrays{f, #args} args;                              \
      k::op args;                                                \
    });                                                          \
  }
COHERIQ_KERNELS_MATH(COHERIQ_CAPI_MATH)
#undef COHERIQ_CAPI_MATH
#undef COHERIQ_CAPI_PASTE
#undef COHERIQ_CAPI_NAME
#undef COHERIQ_CAPI_PREFIX_f64
#undef COHERIQ_CAPI_PREFIX_f32

int coheriq_sgemm(int ta, int tb, size_t m, size_t n, size_t k, float alpha, const float* A,
                  size_t lda, const float* B, size_t ldb, float beta, float* C, size_t ldc) {
  return gemm(__func__, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
int coheriq_dgemm(int ta, int tb, size_t m, size_t n, size_t k, double alpha, const double* A,
                  size_t lda, const double* B, size_t ldb, double beta, double* C, size_t ldc) {
  return gemm(__func__, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

#define COHERIQ_CAPI_BATCHES(T, prefix)                                                           \
  int coheriq_##prefix##gemm_batch_strided(int ta, int tb, size_t m, size_t n, size_t k, T alpha, \
                                           const T* A, size_t lda, size_t stride_a, const T* B,   \
                                           size_t ldb, size_t stride_b, T beta, T* C, size_t ldc, \
                                           size_t stride_c, size_t batch) {                       \
    return gemm_batch_strided(__func__, ta, tb, m, n, k, alpha, A, lda, stride_a, B, ldb,         \
                              stride_b, beta, C, ldc, stride_c, batch);                           \
  }                                                                                               \
  int coheriq_##prefix##gemm_batch(int ta, int tb, size_t m, size_t n, size_t k, T alpha,         \
                                   const T* const* A, size_t lda, const T* const* B, size_t ldb,  \
                                   T beta, T* const* C, size_t ldc, size_t batch) {               \
    return gemm_batch(__func__, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch);     \
  }
COHERIQ_CAPI_BATCHES(float, s)
COHERIQ_CAPI_BATCHES(double, d)
#undef COHERIQ_CAPI_BATCHES

}  // extern "C"
