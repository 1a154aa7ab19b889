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
#include <vector>

namespace {

namespace k = coheriq::kernels;

thread_local std::string last_error;

int fail(int status, std::string message) {
  last_error = std::move(message);
  return status;
}

// Runs f, mapping what it throws to a status; f's results are written by f itself, last.
template <class F>
int run(F f) noexcept {
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
    return fail(COHERIQ_ERROR_INVALID_ARGUMENT, e.what());
  } catch (const std::bad_alloc&) {
    return fail(COHERIQ_ERROR_OUT_OF_MEMORY,
                "coheriq: out of memory; free memory or use smaller sizes");
  } catch (const std::exception& e) {
    return fail(COHERIQ_ERROR_OTHER, e.what());
  } catch (...) {
    return fail(COHERIQ_ERROR_OTHER, "coheriq: unexpected error");
  }
}

void require(const void* p, const char* function, const char* argument) {
  if (p == nullptr) {
    throw std::invalid_argument(std::string("coheriq: ") + function + ": " + argument +
                                " is NULL; pass a valid pointer");
  }
}

// NUL-terminated `text` into buf[0, size), or BUFFER_TOO_SMALL with buf untouched.
int copy_out(const char* function, const std::string& text, char* buf, std::size_t size) {
  if (buf == nullptr) {
    return fail(COHERIQ_ERROR_INVALID_ARGUMENT,
                std::string("coheriq: ") + function + ": buf is NULL; pass a buffer");
  }
  if (text.size() + 1 > size) {
    return fail(COHERIQ_ERROR_BUFFER_TOO_SMALL, std::string("coheriq: ") + function + ": '" + text +
                                                    "' needs " + std::to_string(text.size() + 1) +
                                                    " bytes, size is " + std::to_string(size) +
                                                    "; pass a larger buffer");
  }
  std::memcpy(buf, text.c_str(), text.size() + 1);
  return COHERIQ_OK;
}

k::Trans trans_of(int t, const char* function, const char* argument) {
  if (t == COHERIQ_NO_TRANS) return k::Trans::N;
  if (t == COHERIQ_TRANS) return k::Trans::T;
  throw std::invalid_argument(std::string("coheriq: ") + function + ": " + argument + " = " +
                              std::to_string(t) +
                              " is not a coheriq_trans; pass COHERIQ_NO_TRANS or COHERIQ_TRANS");
}

template <class R, class F>
int result_of(const char* function, R* result, F f) {
  return run([&] {
    require(result, function, "result");
    const R value = f();
    *result = value;
  });
}

}  // namespace

extern "C" {

const char* coheriq_last_error(void) { return last_error.c_str(); }

int coheriq_enable_engine(const char* domain, const char* engine) {
  return run([&] {
    require(domain, "coheriq_enable_engine", "domain");
    require(engine, "coheriq_enable_engine", "engine");
    coheriq::enable_engine(domain, engine);
  });
}

int coheriq_active_engine(const char* domain, char* buf, size_t size) {
  std::string name;
  const int status = run([&] {
    require(domain, "coheriq_active_engine", "domain");
    name = coheriq::active_engine(domain);
  });
  return status != COHERIQ_OK ? status : copy_out("coheriq_active_engine", name, buf, size);
}

int coheriq_engine_count(const char* domain, size_t* count) {
  return result_of("coheriq_engine_count", count, [&] {
    require(domain, "coheriq_engine_count", "domain");
    return coheriq::engines(domain).size();
  });
}

int coheriq_engine_name(const char* domain, size_t index, char* buf, size_t size) {
  std::string name;
  const int status = run([&] {
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
    throw coheriq::UnknownEngineError(
        std::string("coheriq: coheriq_engine_supported: no engine '") + engine + "' in domain '" +
        domain + "'; list them with coheriq_engine_name");
  });
}

int coheriq_set_num_threads(size_t n) {
  return run([&] { k::set_num_threads(n); });
}
int coheriq_num_threads(size_t* n) {
  return result_of("coheriq_num_threads", n, [] { return k::num_threads(); });
}

// ------------------------------ Kernels

#define COHERIQ_C_REDUCE(name, T, call)                             \
  int name(size_t n, const T* x, T* result) {                       \
    return result_of(#name, result, [&] { return k::call(n, x); }); \
  }
COHERIQ_C_REDUCE(coheriq_ssum, float, sum)
COHERIQ_C_REDUCE(coheriq_dsum, double, sum)
COHERIQ_C_REDUCE(coheriq_sasum, float, asum)
COHERIQ_C_REDUCE(coheriq_dasum, double, asum)
COHERIQ_C_REDUCE(coheriq_snrm2, float, nrm2)
COHERIQ_C_REDUCE(coheriq_dnrm2, double, nrm2)
#undef COHERIQ_C_REDUCE

#define COHERIQ_C_REDUCE_STRIDED(name, T, call)                           \
  int name(size_t n, const T* x, ptrdiff_t incx, T* result) {             \
    return result_of(#name, result, [&] { return k::call(n, x, incx); }); \
  }
COHERIQ_C_REDUCE_STRIDED(coheriq_sasum_strided, float, asum_strided)
COHERIQ_C_REDUCE_STRIDED(coheriq_dasum_strided, double, asum_strided)
COHERIQ_C_REDUCE_STRIDED(coheriq_snrm2_strided, float, nrm2_strided)
COHERIQ_C_REDUCE_STRIDED(coheriq_dnrm2_strided, double, nrm2_strided)
#undef COHERIQ_C_REDUCE_STRIDED

int coheriq_sdot(size_t n, const float* x, const float* y, float* result) {
  return result_of("coheriq_sdot", result, [&] { return k::dot(n, x, y); });
}
int coheriq_ddot(size_t n, const double* x, const double* y, double* result) {
  return result_of("coheriq_ddot", result, [&] { return k::dot(n, x, y); });
}
int coheriq_sdot_strided(size_t n, const float* x, ptrdiff_t incx, const float* y, ptrdiff_t incy,
                         float* result) {
  return result_of("coheriq_sdot_strided", result,
                   [&] { return k::dot_strided(n, x, incx, y, incy); });
}
int coheriq_ddot_strided(size_t n, const double* x, ptrdiff_t incx, const double* y, ptrdiff_t incy,
                         double* result) {
  return result_of("coheriq_ddot_strided", result,
                   [&] { return k::dot_strided(n, x, incx, y, incy); });
}
int coheriq_isamax(size_t n, const float* x, size_t* result) {
  return result_of("coheriq_isamax", result, [&] { return k::iamax(n, x); });
}
int coheriq_idamax(size_t n, const double* x, size_t* result) {
  return result_of("coheriq_idamax", result, [&] { return k::iamax(n, x); });
}
int coheriq_isamax_strided(size_t n, const float* x, ptrdiff_t incx, size_t* result) {
  return result_of("coheriq_isamax_strided", result, [&] { return k::iamax_strided(n, x, incx); });
}
int coheriq_idamax_strided(size_t n, const double* x, ptrdiff_t incx, size_t* result) {
  return result_of("coheriq_idamax_strided", result, [&] { return k::iamax_strided(n, x, incx); });
}

int coheriq_saxpy(size_t n, float a, const float* x, float* y) {
  return run([&] { k::axpy(n, a, x, y); });
}
int coheriq_daxpy(size_t n, double a, const double* x, double* y) {
  return run([&] { k::axpy(n, a, x, y); });
}
int coheriq_saxpy_strided(size_t n, float a, const float* x, ptrdiff_t incx, float* y,
                          ptrdiff_t incy) {
  return run([&] { k::axpy_strided(n, a, x, incx, y, incy); });
}
int coheriq_daxpy_strided(size_t n, double a, const double* x, ptrdiff_t incx, double* y,
                          ptrdiff_t incy) {
  return run([&] { k::axpy_strided(n, a, x, incx, y, incy); });
}
int coheriq_sscal(size_t n, float a, float* x) {
  return run([&] { k::scal(n, a, x); });
}
int coheriq_dscal(size_t n, double a, double* x) {
  return run([&] { k::scal(n, a, x); });
}
int coheriq_sscal_strided(size_t n, float a, float* x, ptrdiff_t incx) {
  return run([&] { k::scal_strided(n, a, x, incx); });
}
int coheriq_dscal_strided(size_t n, double a, double* x, ptrdiff_t incx) {
  return run([&] { k::scal_strided(n, a, x, incx); });
}

// The vector math, one C function per row of COHERIQ_KERNELS_MATH: coheriq_vs<op> (float) and
// coheriq_vd<op> (double).
#define COHERIQ_CAPI_PREFIX_f32 vs
#define COHERIQ_CAPI_PREFIX_f64 vd
#define COHERIQ_CAPI_NAME(prefix, op) COHERIQ_CAPI_PASTE(prefix, op)
#define COHERIQ_CAPI_PASTE(prefix, op) coheriq_##prefix##op
#define COHERIQ_CAPI_MATH(op, S, impl, touched, R, params, args) \
  int COHERIQ_CAPI_NAME(COHERIQ_CAPI_PREFIX_##S, op) params {    \
    return run([&] { k::op args; });                             \
  }
COHERIQ_KERNELS_MATH(COHERIQ_CAPI_MATH)
#undef COHERIQ_CAPI_MATH

int coheriq_sgemm(int ta, int tb, size_t m, size_t n, size_t k, float alpha, const float* A,
                  size_t lda, const float* B, size_t ldb, float beta, float* C, size_t ldc) {
  return run([&] {
    k::gemm(trans_of(ta, "coheriq_sgemm", "ta"), trans_of(tb, "coheriq_sgemm", "tb"), m, n, k,
            alpha, A, lda, B, ldb, beta, C, ldc);
  });
}
int coheriq_dgemm(int ta, int tb, size_t m, size_t n, size_t k, double alpha, const double* A,
                  size_t lda, const double* B, size_t ldb, double beta, double* C, size_t ldc) {
  return run([&] {
    k::gemm(trans_of(ta, "coheriq_dgemm", "ta"), trans_of(tb, "coheriq_dgemm", "tb"), m, n, k,
            alpha, A, lda, B, ldb, beta, C, ldc);
  });
}

}  // extern "C"
