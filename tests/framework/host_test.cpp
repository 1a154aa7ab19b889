// The host beyond feature bits: vendor, family, model, vector length and cache sizes, what
// engines may require of them (EngineSpec::host, the union over the MRO), the test hook
// COHERIQ_HOST_OVERRIDE, and feature names checked when an engine is registered. Every case runs
// in its own process and sets the variables it needs before anything reads the host.
#include <coheriq/engine.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/core.hpp"
#include "core/env.hpp"
#include "support.hpp"

using shapes::test::contains;
using shapes::test::expect_error;
using shapes::test::fresh_process;
using shapes::test::info_of;
using shapes::test::same_status;
using shapes::test::set_env;
using shapes::test::skip;
using Names = std::vector<std::string>;

namespace {

coheriq::DomainStatus status() { return coheriq::status(shapes::domain); }
void enable(std::string_view engine) { coheriq::enable_engine(shapes::domain, engine); }

// An engine on `bases` (overriding volume, as shapes::outside_engine) that needs `host`.
void register_needing(std::string name, std::vector<std::string> bases,
                      coheriq::HostRequirements host) {
  coheriq::EngineSpec spec = shapes::outside_engine();
  spec.name = std::move(name);
  spec.bases = std::move(bases);
  spec.host = std::move(host);
  coheriq::register_engine(spec);
}

coheriq::HostRequirements amd_zen() {
  coheriq::HostRequirements r;
  r.vendor = "AuthenticAMD";
  r.families = {25, 26};
  return r;
}

// Whether no fallback source (CPUID, sysconf) knows any cache size on this host.
bool nothing_reports_caches() {
  const auto cpuid = coheriq::detail::cpuid_cache_sizes();
  const auto libc = coheriq::detail::sysconf_cache_sizes();
  return cpuid.l1d_bytes == 0 && cpuid.l2_bytes == 0 && libc.l1d_bytes == 0 && libc.l2_bytes == 0;
}

// An empty directory of this process's own under the temporary directory, removed at the end.
struct ScratchDir {
  explicit ScratchDir(const std::string& name) {
    const char* tmp = std::getenv("TMPDIR");
    path = std::filesystem::path(tmp != nullptr ? tmp : "/tmp") /
           ("coheriq-host-" + std::to_string(getpid()) + "-" + name);
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string str() const { return path.string(); }
  std::filesystem::path path;
};

// <dir>/index<i>/{level,type,size}, as Linux writes them.
void write_cache_entry(const std::string& dir, int index, int level, const std::string& type,
                       const std::string& size) {
  const std::filesystem::path entry =
      std::filesystem::path(dir) / ("index" + std::to_string(index));
  std::filesystem::create_directories(entry);
  std::ofstream(entry / "level") << level << "\n";
  std::ofstream(entry / "type") << type << "\n";
  std::ofstream(entry / "size") << size << "\n";
}

}  // namespace

// ------------------------------ Detection

TEST_CASE("host: vendor, family, model and cache sizes are detected") {
  fresh_process();
  const coheriq::HostInfo h = coheriq::host();
  if (h.arch != "x86_64") {
    MESSAGE("only the x86-64 values are checked here; this host is " << h.arch);
    return;
  }
  CHECK(h.vendor.size() == 12);  // every x86 vendor string has 12 characters
  CHECK(h.family > 0);
  CHECK(h.vector_bits == 0);  // no scalable vectors on x86
  if (h.l1d_bytes == 0 && h.l2_bytes == 0 && nothing_reports_caches()) {
    skip(
        "no source reports cache sizes on this host (no sysfs cache directory, CPUID and sysconf "
        "give none), so there is nothing to compare with");
  }
  CHECK(h.l1d_bytes >= 8 * 1024);
  CHECK(h.l2_bytes > h.l1d_bytes);
  // Where sysfs describes the first cache as a data cache, its size is what was detected.
  std::ifstream type("/sys/devices/system/cpu/cpu0/cache/index0/type");
  std::ifstream size("/sys/devices/system/cpu/cpu0/cache/index0/size");
  std::string t;
  std::string s;
  if (type >> t && size >> s && t == "Data" && s.back() == 'K') {
    CHECK(h.l1d_bytes == std::stoul(s) * 1024);
  }
}

// The sysfs directory is a parameter of the detection, so every host can run it without one (as
// some guests are) and with one written here.
TEST_CASE("host: cache sizes without sysfs come from CPUID or sysconf") {
  fresh_process();
  using coheriq::detail::CacheSizes;
  const CacheSizes none =
      coheriq::detail::detect_cache_sizes(ScratchDir("no-sysfs").str() + "/absent");
  const CacheSizes cpuid = coheriq::detail::cpuid_cache_sizes();
  const CacheSizes libc = coheriq::detail::sysconf_cache_sizes();
  if (nothing_reports_caches()) {
    skip("neither CPUID nor sysconf reports cache sizes on this host (" + coheriq::host().arch +
         "), so without sysfs they are unknown, as HostInfo documents");
  }
  CHECK(none.l1d_bytes >= 8 * 1024);
  CHECK(none.l2_bytes > none.l1d_bytes);
  // CPUID first, then sysconf for what it left unknown.
  CHECK(none.l1d_bytes == (cpuid.l1d_bytes != 0 ? cpuid.l1d_bytes : libc.l1d_bytes));
  CHECK(none.l2_bytes == (cpuid.l2_bytes != 0 ? cpuid.l2_bytes : libc.l2_bytes));
  // Two independent readings of one CPU agree where both have one (glibc decodes CPUID itself).
  if (cpuid.l1d_bytes != 0 && libc.l1d_bytes != 0) CHECK(cpuid.l1d_bytes == libc.l1d_bytes);
  if (cpuid.l2_bytes != 0 && libc.l2_bytes != 0) CHECK(cpuid.l2_bytes == libc.l2_bytes);
}

TEST_CASE("host: a sysfs cache description wins, and gaps in it are filled") {
  fresh_process();
  const ScratchDir scratch("sysfs");
  const std::string dir = scratch.str();
  write_cache_entry(dir, 0, 1, "Data", "32K");
  write_cache_entry(dir, 1, 1, "Instruction", "64K");
  write_cache_entry(dir, 2, 2, "Unified", "2048K");
  write_cache_entry(dir, 3, 3, "Unified", "32M");
  const auto full = coheriq::detail::detect_cache_sizes(dir);
  CHECK(full.l1d_bytes == 32 * 1024);
  CHECK(full.l2_bytes == 2 * 1024 * 1024);

  const ScratchDir scratch_partial("sysfs-l1-only");
  const std::string partial = scratch_partial.str();
  write_cache_entry(partial, 0, 1, "Data", "16K");
  const auto filled = coheriq::detail::detect_cache_sizes(partial);
  CHECK(filled.l1d_bytes == 16 * 1024);
  const auto cpuid = coheriq::detail::cpuid_cache_sizes();
  const auto libc = coheriq::detail::sysconf_cache_sizes();
  CHECK(filled.l2_bytes == (cpuid.l2_bytes != 0 ? cpuid.l2_bytes : libc.l2_bytes));
}

// ------------------------------ COHERIQ_HOST_OVERRIDE

TEST_CASE("host override: the host reports what the variable says") {
  fresh_process();
  set_env("COHERIQ_HOST_OVERRIDE",
          " vendor=AuthenticAMD, family=25 ,model=97,l1d_bytes=32K,l2_bytes=1M");
  const coheriq::HostInfo h = coheriq::host();
  CHECK(h.vendor == "AuthenticAMD");
  CHECK(h.family == 25);
  CHECK(h.model == 97);
  CHECK(h.l1d_bytes == 32 * 1024);
  CHECK(h.l2_bytes == 1024 * 1024);
}

TEST_CASE("host override: vector_bits may only be lowered") {
  fresh_process();
  set_env("COHERIQ_HOST_OVERRIDE", "vector_bits=2048");  // more than any host has
  expect_error<coheriq::Error>([] { coheriq::host(); },
                               {"COHERIQ_HOST_OVERRIDE", "vector_bits=2048", "only lower"});
}

TEST_CASE("host override: a malformed value is an Error naming the variable") {
  fresh_process();
  set_env("COHERIQ_HOST_OVERRIDE", "family=six");
  expect_error<coheriq::Error>([] { coheriq::host(); }, {"COHERIQ_HOST_OVERRIDE", "six"});
  // An engine with host requirements cannot be judged either; nothing changes.
  register_needing("amd", {"left"}, amd_zen());
  const auto open = status();
  expect_error<coheriq::Error>([] { enable("amd"); }, {"COHERIQ_HOST_OVERRIDE"});
  CHECK(same_status(open, status()));
}

TEST_CASE("host override: the grammar") {
  fresh_process();
  using coheriq::detail::parse_host_override;
  const char* var = "COHERIQ_HOST_OVERRIDE";
  for (const char* bad :
       {"vendor", "family=x", "bogus=1", "l1d_bytes=", "l1d_bytes=12Q", "l2_bytes=-1",
        "vendor=Genuine Intel", "family=1,family=2", "vector_bits=100", ",", "vendor=AuthenticAMD,",
        "model=99999999999999999999", "=5"}) {
    CAPTURE(std::string(bad));
    expect_error<coheriq::Error>([&] { parse_host_override(bad, var); }, {var});
  }
  CHECK_FALSE(parse_host_override("", var).vendor.has_value());
  CHECK_FALSE(parse_host_override(" \t", var).family.has_value());
  const auto o =
      parse_host_override("l1d_bytes=48K,l2_bytes=2M,vector_bits=256,model=1,vendor=X", var);
  CHECK(o.l1d_bytes == std::size_t{48 * 1024});
  CHECK(o.l2_bytes == std::size_t{2 * 1024 * 1024});
  CHECK(o.vector_bits == std::size_t{256});
  CHECK(o.model == 1);
  CHECK(o.vendor == std::string("X"));
  CHECK_FALSE(o.family.has_value());
  // An over-long value is not repeated whole into the message.
  const std::string long_value = "vendor=" + std::string(100000, 'A') + ",family=x";
  const std::string message =
      expect_error<coheriq::Error>([&] { parse_host_override(long_value, var); }, {var});
  CHECK(message.size() < 2000);
}

// ------------------------------ Host requirements of engines

TEST_CASE("host requirements: a vendor and family the host lacks make the engine unsupported") {
  fresh_process();
  set_env("COHERIQ_HOST_OVERRIDE", "vendor=GenuineIntel,family=6");
  register_needing("amd", {"left"}, amd_zen());
  const auto info = info_of("amd");
  CHECK_FALSE(info.supported);
  CHECK(info.error == "");
  CHECK(info.missing_features.empty());
  CHECK(info.missing_host == Names{"vendor AuthenticAMD (this host: GenuineIntel)",
                                   "CPU family 25 or 26 (this host: 6)"});

  const auto open = status();
  expect_error<coheriq::UnsupportedEngineError>(
      [] { enable("amd"); },
      {"'amd'", "vendor AuthenticAMD (this host: GenuineIntel)", "CPU family 25 or 26", "left"});
  CHECK(same_status(open, status()));

  // The variable passes over it for the next engine of the list, or names why.
  set_env("SHAPES_ENGINE", "amd");
  expect_error<coheriq::UnsupportedEngineError>(
      [] { shapes::area(1, 1); },
      {"SHAPES_ENGINE", "'amd': missing vendor AuthenticAMD (this host: GenuineIntel)"});
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  set_env("SHAPES_ENGINE", "amd,right");
  shapes::test::check_calls("base", "right", "right");
  CHECK(status().engine == "right");
}

TEST_CASE("host requirements: an engine whose requirements are met runs") {
  fresh_process();
  set_env("COHERIQ_HOST_OVERRIDE", "vendor=AuthenticAMD,family=26");
  register_needing("amd", {"left"}, amd_zen());
  CHECK(info_of("amd").supported);
  CHECK(info_of("amd").missing_host.empty());
  enable("amd");
  shapes::test::check_calls("base", "left", "outside");
}

TEST_CASE("host requirements: vector length and cache sizes, the union over the MRO") {
  fresh_process();
  set_env("COHERIQ_HOST_OVERRIDE", "vector_bits=0,l1d_bytes=32K,l2_bytes=512K");
  coheriq::HostRequirements big_caches;
  big_caches.min_l1d_bytes = 48 * 1024;
  big_caches.min_l2_bytes = 1024 * 1024;
  register_needing("big_caches", {"left"}, big_caches);
  coheriq::HostRequirements scalable;
  scalable.min_vector_bits = 256;
  scalable.min_l2_bytes = 256 * 1024;  // less than its base asks: the base's requirement holds
  coheriq::EngineSpec spec = shapes::outside_engine();
  spec.name = "scalable";
  spec.bases = {"big_caches"};
  spec.host = scalable;
  spec.overrides = nullptr;
  coheriq::register_engine(spec);

  CHECK(info_of("big_caches").missing_host ==
        Names{"an L1d cache of at least 48 KiB per core (this host: 32 KiB)",
              "an L2 cache of at least 1 MiB per core (this host: 512 KiB)"});
  CHECK(info_of("scalable").missing_host ==
        Names{"a vector length of at least 256 bits (this host: no scalable vectors)",
              "an L1d cache of at least 48 KiB per core (this host: 32 KiB)",
              "an L2 cache of at least 1 MiB per core (this host: 512 KiB)"});
  expect_error<coheriq::UnsupportedEngineError>([] { enable("scalable"); },
                                                {"256 bits", "L1d", "48 KiB", "1 MiB"});
  CHECK(status().state == "open");
}

TEST_CASE("host requirements: two vendors in one MRO make the engine unsupported everywhere") {
  fresh_process();
  set_env("COHERIQ_HOST_OVERRIDE", "vendor=AuthenticAMD,family=25");
  register_needing("amd", {"left"}, amd_zen());
  coheriq::HostRequirements intel;
  intel.vendor = "GenuineIntel";
  register_needing("intel_on_amd", {"amd"}, intel);
  CHECK(info_of("amd").supported);
  const auto info = info_of("intel_on_amd");
  CHECK_FALSE(info.supported);
  REQUIRE(info.missing_host.size() == 1);
  CHECK(contains(info.missing_host[0], "conflicting vendor requirements"));
  expect_error<coheriq::UnsupportedEngineError>(
      [] { enable("intel_on_amd"); },
      {"conflicting vendor requirements", "'GenuineIntel' (engine 'intel_on_amd')",
       "'AuthenticAMD' (engine 'amd')"});
  CHECK(status().state == "open");
}

// ------------------------------ Feature names

TEST_CASE("an unknown feature name in required_features is refused at registration") {
  fresh_process();
  coheriq::EngineSpec spec = shapes::outside_engine();
  spec.required_features = {shapes::kWideFeature, "fma"};  // cpu_features calls FMA "fma3"
  const std::string message = expect_error<coheriq::CompositionError>(
      [&] { coheriq::register_engine(spec); }, {"'outside'", "'fma'", "valid names"});
  CHECK_MESSAGE(!contains(message, "'" COHERIQ_TEST_WIDE_FEATURE "'"),
                shapes::kWideFeature << " is a valid name: " << message);
  if (coheriq::host().arch == "x86_64") CHECK(contains(message, "fma3"));
  for (const auto& info : coheriq::engines(shapes::domain)) CHECK(info.name != "outside");
}
