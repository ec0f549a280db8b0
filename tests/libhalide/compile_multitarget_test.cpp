// compile_multitarget (Module.h), upstream's free function: a static library
// from a module factory whose wrapper runs the first variant this CPU can
// run. The library is linked into a shared library, loaded and run, with
// and without AVX2 masked (HL_DISABLE_FEATURES); each variant adds its own
// tag to the output, so the result says which one ran.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

#include "Halide.h"
#include "HalideBuffer.h"
#include "codegen/Linker.h"
#include "error_message.h"

using namespace Halide;

namespace {

const Target kFast("x86-64-linux-avx-avx2-f16c-fma-sse41");
const Target kBase("x86-64-linux-sse41");

std::string temp_path(const std::string &leaf) {
    return testing::TempDir() + "/compile_multitarget_test_" + std::to_string(getpid()) + "_" + leaf;
}

std::string read_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// The members of a System V / GNU archive, but its symbol and long-name tables.
std::vector<std::string> archive_members(const std::string &ar) {
    std::vector<std::string> out;
    EXPECT_EQ(ar.compare(0, 8, "!<arch>\n"), 0);
    for (size_t pos = 8; pos + 60 <= ar.size();) {
        std::string name = ar.substr(pos, 16);
        size_t size = std::strtoul(ar.substr(pos + 48, 10).c_str(), nullptr, 10);
        bool table =
            name.compare(0, 2, "/ ") == 0 || name.compare(0, 2, "//") == 0 || name.compare(0, 7, "/SYM64/") == 0;
        if (!table) { // a long name ("/123") is a member too
            out.push_back(ar.substr(pos + 60, size));
        }
        pos += 60 + size + (size & 1);
    }
    return out;
}

struct Made {
    std::string name;
    Target target;
};

// The variant for `t` computes out(x) = 10 * in(x) + tag, tag 2 with AVX2, else 1.
ModuleFactory factory(std::vector<Made> *made) {
    return [made](const std::string &name, const Target &t) {
        made->push_back({name, t});
        ImageParam in(Int(32), 1, "in");
        Var x("x");
        Func f("f");
        f(x) = in(x)*10 + (t.has_feature(Target::AVX2) ? 2 : 1);
        return f.compile_to_module({in}, name, t);
    };
}

// Loads `archive` as a shared library of its own (a wrapper caches its
// choice per library) and returns the tag of the variant that ran.
int run_tag(const std::string &archive, const std::string &fn, const std::string &leaf) {
    std::string so = temp_path(leaf);
    std::ofstream(so, std::ios::binary) << Internal::link_shared_library(archive_members(read_file(archive)), leaf);
    void *handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    EXPECT_NE(handle, nullptr) << dlerror();
    if (!handle) {
        return -1;
    }
    auto kernel = reinterpret_cast<int (*)(halide_buffer_t *, halide_buffer_t *)>(dlsym(handle, fn.c_str()));
    EXPECT_NE(kernel, nullptr) << fn;
    Runtime::Buffer<int32_t> in(8), out(8);
    for (int i = 0; i < 8; i++) {
        in(i) = i;
    }
    int tag = -1;
    if (kernel && kernel(in.raw_buffer(), out.raw_buffer()) == 0) {
        tag = out(0);
        for (int i = 0; i < 8; i++) {
            EXPECT_EQ(out(i), 10 * i + tag) << i;
        }
    }
    dlclose(handle);
    std::remove(so.c_str());
    return tag;
}

TEST(CompileMultitarget, WrapperPicksTheVariantTheCpuRuns) {
    std::vector<Made> made;
    std::string lib = temp_path("mtk.a"), header = temp_path("mtk.h"), stmt = temp_path("mtk.stmt");
    compile_multitarget(
        "mtk",
        {{OutputFileType::static_library, lib}, {OutputFileType::c_header, header}, {OutputFileType::stmt, stmt}},
        {kFast, kBase}, {"fast", "base"}, factory(&made));
    // One module per target, named with its suffix, for the target with no_runtime.
    ASSERT_EQ(made.size(), 2u);
    EXPECT_EQ(made[0].name, "mtk_fast");
    EXPECT_EQ(made[0].target, kFast.with_feature(Target::NoRuntime));
    EXPECT_EQ(made[1].name, "mtk_base");
    EXPECT_EQ(made[1].target, kBase.with_feature(Target::NoRuntime));
    // The header declares the wrapper; a stmt file per variant, suffix before the extension.
    EXPECT_NE(read_file(header).find("int mtk(struct halide_buffer_t *"), std::string::npos) << read_file(header);
    std::string fast_stmt = temp_path("mtk-fast.stmt"), base_stmt = temp_path("mtk-base.stmt");
    EXPECT_NE(read_file(fast_stmt).find("mtk_fast"), std::string::npos);
    EXPECT_NE(read_file(base_stmt).find("mtk_base"), std::string::npos);

    int expected =
        __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c") ? 2 : 1;
    EXPECT_EQ(run_tag(lib, "mtk", "libmtk_host.so"), expected);
    setenv("HL_DISABLE_FEATURES", "avx2", 1);
    EXPECT_EQ(run_tag(lib, "mtk", "libmtk_no_avx2.so"), 1);
    unsetenv("HL_DISABLE_FEATURES");
    for (const std::string &f : {lib, header, stmt, fast_stmt, base_stmt}) {
        std::remove(f.c_str());
    }
}

TEST(CompileMultitarget, DefaultSuffixIsTheTargetString) {
    std::vector<Made> made;
    std::string lib = temp_path("mtd.a");
    compile_multitarget("mtd", {{OutputFileType::static_library, lib}}, {kFast, kBase}, {}, factory(&made));
    ASSERT_EQ(made.size(), 2u);
    EXPECT_EQ(made[1].name, "mtd_x86_64_linux_sse41");
    EXPECT_EQ(run_tag(lib, "mtd", "libmtd.so") > 0, true);
    std::remove(lib.c_str());
}

// Objects, as upstream's: PATH-SUFFIX per variant, PATH_wrapper, PATH_runtime.
TEST(CompileMultitarget, ObjectsLinkIntoALibrary) {
    std::vector<Made> made;
    std::string obj = temp_path("mto.o");
    compile_multitarget("mto", {{OutputFileType::object, obj}}, {kFast, kBase}, {"fast", "base"}, factory(&made));
    std::vector<std::string> files = {temp_path("mto-fast.o"), temp_path("mto-base.o"), temp_path("mto_wrapper.o"),
                                      temp_path("mto_runtime.o")};
    std::vector<std::string> objects;
    for (const std::string &f : files) {
        objects.push_back(read_file(f));
        EXPECT_FALSE(objects.back().empty()) << f;
    }
    std::string so = temp_path("libmto.so");
    std::ofstream(so, std::ios::binary) << Internal::link_shared_library(objects, "libmto.so");
    void *handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    auto kernel = reinterpret_cast<int (*)(halide_buffer_t *, halide_buffer_t *)>(dlsym(handle, "mto"));
    ASSERT_NE(kernel, nullptr);
    Runtime::Buffer<int32_t> in(4), out(4);
    for (int i = 0; i < 4; i++) {
        in(i) = i;
    }
    ASSERT_EQ(kernel(in.raw_buffer(), out.raw_buffer()), 0);
    int tag = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c") ? 2 : 1;
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(out(i), 10 * i + tag) << i;
    }
    dlclose(handle);
    for (const std::string &f : files) {
        std::remove(f.c_str());
    }
    std::remove(so.c_str());
}

TEST(CompileMultitarget, OneTargetIsThatModule) {
    std::vector<Made> made;
    std::string lib = temp_path("mt1.a");
    compile_multitarget("mt1", {{OutputFileType::static_library, lib}}, {kBase}, {}, factory(&made));
    ASSERT_EQ(made.size(), 1u);
    EXPECT_EQ(made[0].name, "mt1");
    EXPECT_EQ(made[0].target, kBase);
    EXPECT_EQ(run_tag(lib, "mt1", "libmt1.so"), 1);
    std::remove(lib.c_str());
}

TEST(CompileMultitarget, UpstreamsErrors) {
    std::vector<Made> made;
    auto build = [&](const std::vector<Target> &targets, const std::vector<std::string> &suffixes,
                     OutputFileType kind = OutputFileType::static_library) {
        return message_of([&] {
            compile_multitarget("mte", {{kind, temp_path("mte.out")}}, targets, suffixes, factory(&made));
        });
    };
    EXPECT_EQ(build({kFast, kBase}, {"a"}), "The suffixes list must be empty or the same length as the targets list.");
    EXPECT_EQ(build({Target("arm-64-linux"), kBase}, {}),
              "All Targets must have matching arch-bits-os for compile_multitarget.");
    EXPECT_EQ(build({kFast.with_feature(Target::UserContext), kBase}, {}),
              "All Targets must have feature 'user_context' set identically for compile_multitarget.");
    EXPECT_EQ(build({kBase.with_feature(Target::JIT)}, {}), "JIT not allowed for compile_multitarget.");
    EXPECT_EQ(build({}, {}), "Must specify at least one target.");
    EXPECT_EQ(message_of([&] {
                  compile_multitarget("mte",
                                      {{OutputFileType::object, temp_path("mte.o")},
                                       {OutputFileType::static_library, temp_path("mte.a")}},
                                      {kFast, kBase}, {}, factory(&made));
              }),
              "compile_multitarget() expects exactly one of 'object' and 'static_library' to be specified when "
              "multiple targets are specified.");
    EXPECT_NE(build({kFast, kBase}, {}, OutputFileType::python_extension).find("mte.out"), std::string::npos);
}

} // namespace
