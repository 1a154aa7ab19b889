// Plugin engines: manifests, lazy loading, ABI checks. Each case runs in a fresh process (ctest
// per test case) with COHERIQ_ENGINE_PATH set by CMake to a directory of test manifests.
#include <doctest/doctest.h>
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <string>

#include <sys/stat.h>

#include "core/core.hpp"
#include "core/plugin.hpp"

namespace {

bool mapped(const std::string& library) {
  std::ifstream maps("/proc/self/maps");
  std::stringstream s;
  s << maps.rdbuf();
  return s.str().find(library) != std::string::npos;
}

const coheriq::EngineInfo* find(const std::vector<coheriq::EngineInfo>& all, const std::string& n) {
  for (const auto& e : all) {
    if (e.name == n) return &e;
  }
  return nullptr;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const coheriq::Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A fresh, empty directory of this test case (under the build tree), for manifests written by the
// test itself.
std::string scratch(const std::string& name) {
  const std::string dir = std::string(PLUGIN_SCRATCH) + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::permissions(
      dir, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
               std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
               std::filesystem::perms::others_exec);
  return dir;
}

void write(const std::string& path, const std::string& text) {
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
    REQUIRE(out.good());
  }
  REQUIRE(::chmod(path.c_str(), 0644) == 0);  // whatever the umask: world-writable is refused
}

// A manifest of the kernels domain for `name`, followed by `extra` lines.
std::string manifest_text(const std::string& name, const std::string& extra = "") {
  return "domain = coheriq.kernels\nname = " + name +
         "\nlibrary = libtest_plugin.so\nabi = coheriq.kernels/2\n" + extra;
}

// The kernels domain's broken manifests, after its engines are listed.
std::vector<std::string> broken_manifests() {
  (void)coheriq::engines(coheriq::kernels::domain_name);
  auto& d = coheriq::detail::find_domain(coheriq::kernels::domain_name);
  std::lock_guard<std::mutex> guard(d.mu);
  (void)d.all_engines();
  return d.broken_manifests;
}

bool any_contains(const std::vector<std::string>& all, const std::string& part) {
  for (const std::string& s : all) {
    if (contains(s, part)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("manifest: a complete manifest parses") {
  const std::string feature = coheriq::detail::known_feature_names().at(0);  // any arch
  const auto m = coheriq::detail::parse_manifest(
      "# comment\n\ndomain = coheriq.kernels\nname = fast\nbases = avx2, reference\n"
      "requires = " +
          feature +
          "\npriority = -3\ndescription = a = b\nlibrary = libfast.so\n"
          "abi = coheriq.kernels/2\noverrides = dot.f32, sum.f32\n"
          "layouts = PackedMatrix<float>: wide; PackedMatrix<double>: wide\n"
          "host = vendor=AuthenticAMD, families=25|26, min_vector_bits=256, min_l1d_bytes=48K, "
          "min_l2_bytes=1048576\n",
      "/opt/x/fast.coheriq-engine");
  CHECK(m.requires_features == std::vector<std::string>{feature});
  CHECK(m.host.vendor == "AuthenticAMD");
  CHECK(m.host.families == std::vector<int>{25, 26});
  CHECK(m.host.min_vector_bits == 256);
  CHECK(m.host.min_l1d_bytes == 49152);
  CHECK(m.host.min_l2_bytes == 1048576);
  // Every item is optional.
  const auto some = coheriq::detail::parse_manifest(
      "domain = d\nname = n\nlibrary = l.so\nabi = a\nhost = min_l2_bytes = 524288\n", "s");
  CHECK(some.host.vendor.empty());
  CHECK(some.host.families.empty());
  CHECK(some.host.min_l2_bytes == 524288);
  CHECK(m.name == "fast");
  CHECK(m.bases == std::vector<std::string>{"avx2", "reference"});
  CHECK(m.priority == -3);
  CHECK(m.description == "a = b");
  CHECK(m.library == "/opt/x/libfast.so");
  CHECK(m.overrides.size() == 2);
  REQUIRE(m.layouts.size() == 2);
  CHECK(m.layouts[0].first == "PackedMatrix<float>");
  CHECK(m.layouts[0].second == "wide");
}

TEST_CASE("manifest: every malformed line names the file and line") {
  const char* cases[][2] = {
      {"domain = d\nname fast\n", "m.coheriq-engine:2: expected 'key = value'"},
      {"domain = d\ncolour = red\n", "m.coheriq-engine:2: unknown key 'colour'"},
      {"domain = d\ndomain = e\n", "m.coheriq-engine:2: key 'domain' appears twice"},
      {"domain = d\nname = \n", "m.coheriq-engine:2: key 'name' has no value"},
      {"domain = d\npriority = high\n", "m.coheriq-engine:2: priority must be an integer"},
      {"domain = d\nbases = a,,b\n", "m.coheriq-engine:2: bases"},
      {"domain = d\nname = a b\n", "m.coheriq-engine:2: name"},
      {"domain = d\nname = x\nlibrary = l.so\n", "missing required key 'abi'"},
      {"domain = d\nrequires = fma\n",
       "m.coheriq-engine:2: requires fma, which cpu_features does not know on this architecture; "
       "valid names: "},
      {"domain = d\nhost = vendor\n",
       "m.coheriq-engine:2: host: item 'vendor' is not 'name=value'"},
      {"domain = d\nhost = families=25|x\n", "m.coheriq-engine:2: host: families must be numbers"},
      {"domain = d\nhost = families=25,\n", "m.coheriq-engine:2: host: item '' is not"},
      {"domain = d\nhost = min_l2_bytes=1G\n",
       "m.coheriq-engine:2: host: min_l2_bytes must be a decimal"},
      {"domain = d\nhost = min_l1d_bytes=99999999999999999999999\n",
       "host: min_l1d_bytes must be a decimal"},
      {"domain = d\nhost = family=25\n", "m.coheriq-engine:2: host: unknown item 'family'"},
      {"domain = d\nhost = speed=3\n", "m.coheriq-engine:2: host: unknown item 'speed'; items are"},
      {"domain = d\nhost = vendor=a, vendor=b\n", "host: item 'vendor' appears twice"},
  };
  for (const auto& c : cases) {
    CAPTURE(c[0]);
    try {
      (void)coheriq::detail::parse_manifest(c[0], "m.coheriq-engine");
      FAIL("no PluginError");
    } catch (const coheriq::PluginError& e) {
      const std::string what = e.what();
      CHECK(what.rfind("coheriq: plugin manifest m.coheriq-engine", 0) == 0);
      CHECK(what.find(c[1]) != std::string::npos);
    }
  }
}

TEST_CASE("manifest: an unknown cpu_features name lists the valid ones") {
  const auto& known = coheriq::detail::known_feature_names();
  REQUIRE_FALSE(known.empty());
  try {
    (void)coheriq::detail::parse_manifest(
        "domain = d\nname = n\nrequires = " + known.back() + ", no_such_feature\n",
        "m.coheriq-engine");
    FAIL("no PluginError");
  } catch (const coheriq::PluginError& e) {
    const std::string what = e.what();
    CHECK(contains(what, "m.coheriq-engine:3: requires no_such_feature, which"));
    CHECK(contains(what, "valid names: " + coheriq::detail::join(known)));
  }
}

TEST_CASE("manifest: reproducible is yes or no, and no when absent") {
  const std::string head = "domain = d\nname = n\nlibrary = l.so\nabi = a\n";
  CHECK(coheriq::detail::parse_manifest(head + "reproducible = yes\n", "m").reproducible);
  CHECK_FALSE(coheriq::detail::parse_manifest(head + "reproducible = no\n", "m").reproducible);
  CHECK_FALSE(coheriq::detail::parse_manifest(head, "m").reproducible);
  // Anything else is refused, naming the line: a plugin does not honour the mode by accident.
  for (const char* bad : {"1", "Yes", "true", "yes please"}) {
    CAPTURE(std::string(bad));
    const std::string text = "domain = d\nname = n\nreproducible = " + std::string(bad) + "\n";
    try {
      (void)coheriq::detail::parse_manifest(text, "m.coheriq-engine");
      FAIL("no PluginError");
    } catch (const coheriq::PluginError& e) {
      const std::string what = e.what();
      CHECK(contains(what, "m.coheriq-engine:3: reproducible is 'yes' or 'no', got '" +
                               std::string(bad) + "'"));
    }
  }
}

TEST_CASE("plugin: listing reads manifests only and never loads a library") {
  const auto all = coheriq::engines(coheriq::kernels::domain_name);
  const auto* p = find(all, "test_plugin");
  REQUIRE(p != nullptr);
  CHECK(p->origin.rfind("plugin:", 0) == 0);
  CHECK(p->supported);
  CHECK(p->mro == std::vector<std::string>{"test_plugin", "reference"});
  bool sum_from_plugin = false;
  for (const auto& pr : p->providers) {
    if (pr.candidate == "sum.f32") sum_from_plugin = pr.engine == "test_plugin";
  }
  CHECK(sum_from_plugin);
  CHECK_FALSE(mapped("libtest_plugin.so"));
  CHECK_FALSE(coheriq::is_locked(coheriq::kernels::domain_name));
}

TEST_CASE("plugin: enabling loads it and its override runs") {
  coheriq::kernels::enable_engine("test_plugin");
  CHECK(mapped("libtest_plugin.so"));
  const float x[3] = {1, 2, 3};
  CHECK(coheriq::kernels::sum(3, x) == 1006.0f);
  CHECK(coheriq::kernels::active_engine() == "test_plugin");
}

TEST_CASE("plugin: a plugin built for another domain ABI is refused, never called") {
  const auto all = coheriq::engines(coheriq::kernels::domain_name);
  const auto* p = find(all, "old_plugin");
  REQUIRE(p != nullptr);
  CHECK_FALSE(p->supported);
  // The manifest alone may be wrong: the message names both values and the line to write.
  CHECK(p->error.find("its manifest says abi = coheriq.kernels/0") != std::string::npos);
  CHECK(p->error.find("set 'abi = coheriq.kernels/2' in the manifest") != std::string::npos);
  const std::string m = message_of([] { coheriq::kernels::enable_engine("old_plugin"); });
  CHECK(m.rfind("coheriq: plugin engine 'old_plugin'", 0) == 0);
  CHECK(m.find("coheriq.kernels/0") != std::string::npos);
  CHECK_FALSE(mapped("libold_plugin.so"));
  CHECK(coheriq::kernels::active_engine() == "reference");
}

TEST_CASE("plugin: a library that lies about its ABI is refused at load") {
  // The manifest claims the right ABI, the library was built for another one.
  const std::string m = message_of([] { coheriq::kernels::enable_engine("liar_plugin"); });
  CHECK(m.find("built against ABI coheriq.kernels/0") != std::string::npos);
  CHECK(coheriq::status(coheriq::kernels::domain_name).state == "open");
}

TEST_CASE("plugin: a missing library is a PluginError naming it, and nothing changes") {
  const std::string m = message_of([] { coheriq::kernels::enable_engine("missing_plugin"); });
  CHECK(m.find("cannot load") != std::string::npos);
  CHECK(m.find("libdoes_not_exist.so") != std::string::npos);
  CHECK(coheriq::status(coheriq::kernels::domain_name).state == "open");
}

TEST_CASE("plugin: an unsupported plugin is refused before its library is loaded") {
  // Host features are detected at first need, so this process can still remove one.
  ::setenv("COHERIQ_DISABLE_CPU_FEATURES", PLUGIN_FEATURE, 1);
  const std::string m = message_of([] { coheriq::kernels::enable_engine("needs_cpu_plugin"); });
  CHECK(m.find("not supported on this host") != std::string::npos);
  CHECK_FALSE(mapped("libtest_plugin.so"));
}

TEST_CASE("broken manifests: reported, and they stop no selection that does not need them") {
  const std::string dir = scratch("broken");
  // The engine name can be read: that engine is unusable, with the parse error as its reason.
  write(dir + "/a.coheriq-engine", manifest_text("broken_one", "colour = red\n"));
  // Neither name nor domain can be read, or the name only: kept in broken_manifests.
  write(dir + "/b.coheriq-engine", "domain = coheriq.kernels\nname fast\n");
  write(dir + "/c.coheriq-engine", "garbage\n");
  // Another domain's broken manifest is not this domain's business.
  write(dir + "/d.coheriq-engine", "domain = some.other.domain\nname = x\nnonsense\n");
  ::setenv("COHERIQ_ENGINE_PATH", (dir + ":" + PLUGIN_DIR).c_str(), 1);

  const auto all = coheriq::engines(coheriq::kernels::domain_name);  // does not throw
  const auto* b = find(all, "broken_one");
  REQUIRE(b != nullptr);
  CHECK_FALSE(b->supported);
  CHECK(contains(b->error, dir + "/a.coheriq-engine:5: unknown key 'colour'"));
  CHECK(b->origin == "plugin:" + dir + "/a.coheriq-engine");

  const auto broken = broken_manifests();
  CHECK(broken.size() == 2);
  CHECK(any_contains(broken, dir + "/b.coheriq-engine:2: expected 'key = value'"));
  CHECK(any_contains(broken, dir + "/c.coheriq-engine:1: expected 'key = value'"));
  CHECK_FALSE(any_contains(broken, "d.coheriq-engine"));

  // Asking for the broken engine fails loudly and changes nothing ...
  const std::string m = message_of([] { coheriq::kernels::enable_engine("broken_one"); });
  CHECK(m.rfind("coheriq: plugin manifest " + dir + "/a.coheriq-engine:5:", 0) == 0);
  CHECK(coheriq::status(coheriq::kernels::domain_name).state == "open");
  // ... and every other engine still works.
  coheriq::kernels::enable_engine("test_plugin");
  const float x[3] = {1, 2, 3};
  CHECK(coheriq::kernels::sum(3, x) == 1006.0f);
}

TEST_CASE("plugin path: the same directory or manifest reached twice is one engine") {
  const std::string dir = scratch("twice");
  const std::string link = scratch("twice-link") + "/engines";
  std::filesystem::create_directory_symlink(PLUGIN_DIR, link);
  // A manifest symlinked into another directory of the path is the same file.
  std::filesystem::create_symlink(std::string(PLUGIN_DIR) + "/test_plugin.coheriq-engine",
                                  dir + "/also_test_plugin.coheriq-engine");
  const std::string p = PLUGIN_DIR;
  ::setenv("COHERIQ_ENGINE_PATH", (p + ":" + p + "/:" + dir + ":" + link + "::" + p).c_str(), 1);

  const auto all = coheriq::engines(coheriq::kernels::domain_name);
  int listed = 0;
  for (const auto& e : all) listed += e.name == "test_plugin";
  CHECK(listed == 1);
  CHECK(broken_manifests().empty());
  coheriq::kernels::enable_engine("test_plugin");
  const float x[3] = {1, 2, 3};
  CHECK(coheriq::kernels::sum(3, x) == 1006.0f);
}

TEST_CASE("plugin path: two different manifests of one engine make it unusable, not the rest") {
  const std::string dir = scratch("clash");
  write(dir + "/mine.coheriq-engine", manifest_text("test_plugin", "priority = 9\n"));
  // A manifest cannot take the name of an engine the domain has itself.
  write(dir + "/ref.coheriq-engine", manifest_text("reference"));
  ::setenv("COHERIQ_ENGINE_PATH", (std::string(PLUGIN_DIR) + ":" + dir).c_str(), 1);

  const auto all = coheriq::engines(coheriq::kernels::domain_name);
  const auto* p = find(all, "test_plugin");
  REQUIRE(p != nullptr);
  CHECK_FALSE(p->supported);
  CHECK(contains(p->error, "provided by 2 different manifests"));
  CHECK(contains(p->error, dir + "/mine.coheriq-engine"));
  CHECK(contains(p->error, std::string(PLUGIN_DIR) + "/test_plugin.coheriq-engine"));
  const std::string m = message_of([] { coheriq::kernels::enable_engine("test_plugin"); });
  CHECK(contains(m, "provided by 2 different manifests"));
  CHECK_FALSE(mapped("libtest_plugin.so"));
  CHECK(any_contains(broken_manifests(), dir + "/ref.coheriq-engine"));
  coheriq::kernels::enable_engine("reference");
}

TEST_CASE("plugin path: only regular files of bounded size are read, and refusals say why") {
  // Before, a FIFO blocked the first use forever and /dev/zero was read until bad_alloc; the
  // ctest TIMEOUT of this entry catches a hang.
  const std::string dir = scratch("special");
  REQUIRE(::mkfifo((dir + "/fifo.coheriq-engine").c_str(), 0644) == 0);
  std::filesystem::create_symlink("/dev/zero", dir + "/zero.coheriq-engine");
  std::filesystem::create_directory(dir + "/dir.coheriq-engine");
  write(dir + "/big.coheriq-engine", manifest_text("big", "# " + std::string(70000, 'x') + "\n"));
  std::filesystem::create_symlink(dir + "/nowhere", dir + "/dangling.coheriq-engine");
  const std::string libs = scratch("special-lib");
  REQUIRE(::mkfifo((libs + "/libfifo.so").c_str(), 0644) == 0);
  write(libs + "/f.coheriq-engine",
        "domain = coheriq.kernels\nname = fifo_library\nlibrary = libfifo.so\n"
        "abi = coheriq.kernels/2\n");
  ::setenv("COHERIQ_ENGINE_PATH", (dir + ":" + libs + ":" + PLUGIN_DIR).c_str(), 1);

  const auto broken = broken_manifests();
  CHECK(broken.size() == 5);
  CHECK(
      any_contains(broken, "coheriq: plugin manifest " + dir + "/fifo.coheriq-engine: is a FIFO"));
  CHECK(any_contains(broken, dir + "/zero.coheriq-engine: is a character device"));
  CHECK(any_contains(broken, dir + "/dir.coheriq-engine: is a directory"));
  CHECK(any_contains(broken, dir + "/big.coheriq-engine: is larger than 65536 bytes"));
  CHECK(any_contains(broken, dir + "/dangling.coheriq-engine: cannot read it"));
  // A library that is a FIFO is refused before dlopen, whose open() would block.
  const std::string m = message_of([] { coheriq::kernels::enable_engine("fifo_library"); });
  CHECK(contains(m, "cannot load " + libs + "/libfifo.so: a FIFO, not a regular file"));
  coheriq::kernels::enable_engine("test_plugin");  // the good manifests still work
  CHECK(coheriq::kernels::active_engine() == "test_plugin");
}

TEST_CASE("manifest text: control bytes and non-UTF-8 are refused, and never echoed raw") {
  const std::string dir = scratch("text\x1b[31m\xe9");  // the directory name is untrusted too
  write(dir + "/esc.coheriq-engine", manifest_text("esc", "description = red \x1b[31mALERT\n"));
  write(dir + "/latin1.coheriq-engine", manifest_text("latin1", "description = caf\xe9\n"));
  write(dir + "/long.coheriq-engine", manifest_text("long", std::string(5000, 'k') + " = v\n"));
  write(dir + "/abi.coheriq-engine",
        "domain = coheriq.kernels\nname = abi\nlibrary = l.so\nabi = " + std::string(5000, 'a') +
            "\n");
  ::setenv("COHERIQ_ENGINE_PATH", dir.c_str(), 1);

  const auto all = coheriq::engines(coheriq::kernels::domain_name);
  for (const char* name : {"esc", "latin1", "long", "abi"}) {
    CAPTURE(name);
    const auto* e = find(all, name);
    REQUIRE(e != nullptr);
    CHECK_FALSE(e->supported);
    CHECK(e->error.size() < 1000);
    CHECK(e->error.find('\x1b') == std::string::npos);
    CHECK(e->error.find('\xe9') == std::string::npos);
    CHECK(e->origin.find('\x1b') == std::string::npos);
    CHECK(contains(e->error, "text\\x1b[31m\\xe9/"));  // the directory, escaped
  }
  CHECK(contains(find(all, "esc")->error, "esc.coheriq-engine:5: the line holds a control byte"));
  CHECK(contains(find(all, "esc")->error, "red \\x1b[31mALERT"));
  CHECK(contains(find(all, "latin1")->error, "caf\\xe9"));
  CHECK(contains(find(all, "long")->error, "unknown key 'kkk"));
  CHECK(contains(find(all, "long")->error, "more bytes)"));
  CHECK(contains(find(all, "abi")->error, "more bytes)"));
}

TEST_CASE("plugin trust: a world-writable directory, manifest or library is refused") {
  const std::string open_dir = scratch("world-writable-dir");
  write(open_dir + "/a.coheriq-engine", manifest_text("in_open_dir"));
  REQUIRE(::chmod(open_dir.c_str(), 0777) == 0);
  const std::string dir = scratch("world-writable-files");
  write(dir + "/b.coheriq-engine", manifest_text("open_manifest"));
  REQUIRE(::chmod((dir + "/b.coheriq-engine").c_str(), 0666) == 0);
  const std::string lib = dir + "/libopen.so";
  std::filesystem::copy_file(std::string(PLUGIN_DIR) + "/libtest_plugin.so", lib);
  REQUIRE(::chmod(lib.c_str(), 0777) == 0);
  write(dir + "/c.coheriq-engine",
        "domain = coheriq.kernels\nname = open_library\nlibrary = libopen.so\n"
        "abi = coheriq.kernels/2\n");
  ::setenv("COHERIQ_ENGINE_PATH", (open_dir + ":" + dir + ":" + PLUGIN_DIR).c_str(), 1);

  const auto all = coheriq::engines(coheriq::kernels::domain_name);
  const struct {
    std::string engine;
    std::string path;
  } cases[] = {{"in_open_dir", open_dir},
               {"open_manifest", dir + "/b.coheriq-engine"},
               {"open_library", lib}};
  for (const auto& c : cases) {
    CAPTURE(c.engine);
    const auto* e = find(all, c.engine);
    REQUIRE(e != nullptr);
    CHECK_FALSE(e->supported);
    CHECK(contains(e->error, c.path + " is world-writable"));
    CHECK(contains(e->error, "chmod o-w " + c.path));
    const std::string m = message_of([&] { coheriq::kernels::enable_engine(c.engine); });
    CHECK(m.rfind("coheriq: plugin ", 0) == 0);
    CHECK(contains(m, "world-writable"));
  }
  CHECK_FALSE(mapped("libopen.so"));
  CHECK(coheriq::status(coheriq::kernels::domain_name).state == "open");
  coheriq::kernels::enable_engine("test_plugin");  // the plugins nobody else can write still work
}

// The kernels domain's reproducible mode (COHERIQ_REPRODUCIBLE=1): a plugin serves it only when
// its manifest says `reproducible = yes`.
TEST_CASE("plugin: the reproducible mode refuses a plugin without reproducible = yes") {
  ::setenv("COHERIQ_REPRODUCIBLE", "1", 1);
  ::setenv("COHERIQ_ENGINE", "test_plugin", 1);
  const auto all = coheriq::engines(coheriq::kernels::domain_name);
  const auto* p = find(all, "test_plugin");
  REQUIRE(p != nullptr);
  CHECK_FALSE(p->reproducible);
  CHECK_FALSE(p->supported);
  CHECK(contains(p->error, "does not honour the reproducible mode"));
  const float x[3] = {1, 2, 3};
  const std::string m = message_of([&] { (void)coheriq::kernels::sum(3, x); });
  CHECK(contains(m, "COHERIQ_ENGINE=test_plugin"));
  CHECK(contains(m, "'test_plugin'"));
  CHECK(contains(m, "does not honour the reproducible mode, which is on (COHERIQ_REPRODUCIBLE=1)"));
  CHECK_FALSE(coheriq::is_locked(coheriq::kernels::domain_name));
  const std::string e = message_of([] { coheriq::kernels::enable_engine("test_plugin"); });
  CHECK(contains(e, "does not honour the reproducible mode"));
  CHECK_FALSE(mapped("libtest_plugin.so"));  // refused before its library is loaded
  CHECK_FALSE(coheriq::is_locked(coheriq::kernels::domain_name));
}

TEST_CASE("plugin: a plugin whose manifest says reproducible = yes serves the mode") {
  // The same library under the same engine name, its manifest now saying reproducible = yes.
  const std::string dir = scratch("reproducible");
  write(dir + "/test_plugin.coheriq-engine",
        "domain = coheriq.kernels\nname = test_plugin\nlibrary = " + std::string(PLUGIN_DIR) +
            "/libtest_plugin.so\nabi = coheriq.kernels/2\noverrides = sum.f32\n"
            "reproducible = yes\n");
  ::setenv("COHERIQ_ENGINE_PATH", dir.c_str(), 1);
  ::setenv("COHERIQ_REPRODUCIBLE", "1", 1);
  ::setenv("COHERIQ_ENGINE", "test_plugin", 1);
  const auto all = coheriq::engines(coheriq::kernels::domain_name);
  const auto* p = find(all, "test_plugin");
  REQUIRE(p != nullptr);
  CHECK(p->reproducible);
  CHECK(p->supported);
  CHECK(p->error == "");
  const float x[3] = {1, 2, 3};
  CHECK(coheriq::kernels::sum(3, x) == 1006.0f);  // the plugin's kernel, in the mode
  CHECK(mapped("libtest_plugin.so"));
  const auto s = coheriq::status(coheriq::kernels::domain_name);
  CHECK(s.engine == "test_plugin");
  CHECK(s.reproducible);
  CHECK(s.state == "locked");
}
