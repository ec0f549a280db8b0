// Module, compile_to_module and link_modules: two pipelines linked into one
// shared library, loaded with dlopen and run against a plain C++ loop;
// upstream's errors for mismatched targets.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

#include "Halide.h"
#include "HalideBuffer.h"
#include "error_message.h"

using namespace Halide;

namespace {

using Kernel = int (*)(halide_buffer_t *, halide_buffer_t *);

Module scaled(const std::string &name, int factor, const Target &t) {
    ImageParam in(UInt(8), 1, name + "_in");
    Var x("x");
    Func f(name);
    f(x) = in(x)*cast<uint8_t>(factor);
    return f.compile_to_module({in}, name, t);
}

std::string temp_path(const std::string &leaf) {
    return testing::TempDir() + "/module_test_" + std::to_string(getpid()) + "_" + leaf;
}

TEST(Module, LinkedFunctionsShareOneLibrary) {
    Target host = get_host_target();
    Module linked = link_modules("pair", {scaled("mt_double", 2, host), scaled("mt_triple", 3, host)});
    EXPECT_EQ(linked.name(), "pair");
    std::string lib = temp_path("libpair.so");
    linked.compile({{OutputFileType::shared_library, lib}});
    void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    for (auto [name, factor] : {std::pair<const char *, int>{"mt_double", 2}, {"mt_triple", 3}}) {
        auto kernel = reinterpret_cast<Kernel>(dlsym(handle, name));
        ASSERT_NE(kernel, nullptr) << name;
        Runtime::Buffer<uint8_t> in(16), out(16);
        for (int i = 0; i < 16; i++) {
            in(i) = uint8_t(i * 7);
        }
        ASSERT_EQ(kernel(in.raw_buffer(), out.raw_buffer()), 0);
        for (int i = 0; i < 16; i++) {
            EXPECT_EQ(out(i), uint8_t(i * 7 * factor)) << name << " at " << i;
        }
    }
    dlclose(handle);
    std::remove(lib.c_str());
}

TEST(Module, CompileToBufferGivesTheObject) {
    Buffer<uint8_t> object = scaled("mt_buffer", 2, get_host_target()).compile_to_buffer();
    ASSERT_GT(object.width(), 4);
    EXPECT_EQ(std::string((const char *)object.data(), 4), "\x7f"
                                                           "ELF");
}

TEST(Module, MismatchedTargetsAreUpstreamsError) {
    Module a = scaled("mt_a", 2, Target("x86-64-linux"));
    Module b = scaled("mt_b", 2, Target("x86-64-linux-sse41"));
    EXPECT_EQ(message_of([&] {
                  link_modules("lm", {a, b});
              }),
              "Mismatched targets in modules to link (lm, x86-64-linux), (mt_b, x86-64-linux-sse41)");
}

} // namespace
