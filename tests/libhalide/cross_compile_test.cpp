// Objects for other operating systems (docs/aot.md, "Other operating
// systems"): ELF for linux and android, COFF (.obj/.lib) for windows,
// Mach-O for osx and ios, 32- and 64-bit x86 and ARM, without the runtime
// (it exists for this machine only); 32-bit ARM Windows (as upstream) and
// foreign shared libraries are refused. The header fields checked are those
// of the ELF, COFF and Mach-O formats and of the ARM EABI.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

uint32_t le(const std::string &b, size_t at, int bytes) {
    uint32_t v = 0;
    for (int i = bytes; i-- > 0;) {
        v = (v << 8) | (uint8_t)b.at(at + (size_t)i);
    }
    return v;
}

struct Brighter {
    Func f{"brighter"};
    Var x{"x"}, y{"y"};
    Param<uint8_t> offset{"offset"};
    ImageParam input{UInt(8), 2, "input"};
    std::vector<Argument> args{input, offset};
    Brighter() {
        f(x, y) = input(x, y) + offset;
        f.vectorize(x, 16).parallel(y);
    }
    std::string object(const std::string &target, const std::string &prefix, const char *ext = ".o") {
        f.compile_to_file(prefix, args, "brighter", Target(target));
        EXPECT_FALSE(read_file(prefix + ".h").empty());
        return read_file(prefix + ext);
    }
};

// A symbol only the runtime defines: in an object for this machine, not in
// one for another.
const char *const kRuntimeOnly = "halide_default_do_par_for";

} // namespace

TEST(CrossCompile, WindowsObjectsAreCoffNamedObj) {
    Brighter b;
    std::string obj = b.object("x86-64-windows-avx-sse41", "cross_win", ".obj");
    ASSERT_GE(obj.size(), 20u);
    EXPECT_EQ(le(obj, 0, 2), 0x8664u); // IMAGE_FILE_MACHINE_AMD64
    EXPECT_EQ(obj.find(kRuntimeOnly), std::string::npos);
    b.f.compile_to_static_library("cross_win_lib", b.args, "brighter", Target("x86-64-windows"));
    EXPECT_EQ(read_file("cross_win_lib.lib").substr(0, 8), "!<arch>\n");
}

TEST(CrossCompile, AppleObjectsAreMachO64) {
    Brighter b;
    std::string ios = b.object("arm-64-ios", "cross_ios");
    ASSERT_GE(ios.size(), 16u);
    EXPECT_EQ(le(ios, 0, 4), 0xfeedfacfu); // MH_MAGIC_64
    EXPECT_EQ(le(ios, 4, 4), 0x0100000cu); // CPU_TYPE_ARM64
    EXPECT_EQ(le(ios, 12, 4), 1u);         // MH_OBJECT
    std::string osx = b.object("x86-64-osx-avx2-fma-f16c-avx-sse41", "cross_osx");
    ASSERT_GE(osx.size(), 16u);
    EXPECT_EQ(le(osx, 0, 4), 0xfeedfacfu);
    EXPECT_EQ(le(osx, 4, 4), 0x01000007u); // CPU_TYPE_X86_64
    EXPECT_EQ(osx.find(kRuntimeOnly), std::string::npos);
}

TEST(CrossCompile, OtherLinuxMachinesGetTheKernelAlone) {
    Brighter b;
    for (const char *target : {"arm-64-android", "arm-64-linux"}) {
        std::string elf = b.object(target, "cross_arm64");
        ASSERT_GE(elf.size(), 20u) << target;
        EXPECT_EQ(elf.substr(0, 4), "\x7f"
                                    "ELF");
        EXPECT_EQ(elf[4], 2) << target;            // ELFCLASS64
        EXPECT_EQ(le(elf, 18, 2), 183u) << target; // EM_AARCH64
        EXPECT_EQ(elf.find(kRuntimeOnly), std::string::npos) << target;
    }
    // This machine's objects carry the runtime.
    Target host = get_host_target();
    if (host.os == Target::Linux && host.arch == Target::X86 && host.bits == 64) {
        EXPECT_NE(b.object(host.to_string(), "cross_host").find(kRuntimeOnly), std::string::npos);
    }
}

TEST(CrossCompile, ThirtyTwoBitElfObjects) {
    Brighter b;
    struct Case {
        const char *target;
        uint32_t machine, flags;
    };
    // e_flags: EABI version 5 on ARM, as upstream's objects have it.
    const Case cases[] = {{"arm-32-android", 40 /* EM_ARM */, 0x05000000u},
                          {"arm-32-linux", 40, 0x05000000u},
                          {"x86-32-linux", 3 /* EM_386 */, 0u},
                          {"x86-32-android-sse41", 3, 0u}};
    for (const Case &c : cases) {
        std::string elf = b.object(c.target, "cross_32");
        ASSERT_GE(elf.size(), 52u) << c.target;
        EXPECT_EQ(elf.substr(0, 4), "\x7f"
                                    "ELF");
        EXPECT_EQ(elf[4], 1) << c.target;                 // ELFCLASS32
        EXPECT_EQ(elf[5], 1) << c.target;                 // little-endian
        EXPECT_EQ(le(elf, 16, 2), 1u) << c.target;        // ET_REL
        EXPECT_EQ(le(elf, 18, 2), c.machine) << c.target; // e_machine
        EXPECT_EQ(le(elf, 36, 4), c.flags) << c.target;   // e_flags
        EXPECT_EQ(elf.find(kRuntimeOnly), std::string::npos) << c.target;
    }
    b.f.compile_to_static_library("cross_32_lib", b.args, "brighter", Target("x86-32-linux"));
    EXPECT_EQ(read_file("cross_32_lib.a").substr(0, 8), "!<arch>\n");
}

TEST(CrossCompile, ThirtyTwoBitCoffAndMachO) {
    Brighter b;
    std::string obj = b.object("x86-32-windows-sse41", "cross_win32", ".obj");
    ASSERT_GE(obj.size(), 20u);
    EXPECT_EQ(le(obj, 0, 2), 0x14cu); // IMAGE_FILE_MACHINE_I386
    std::string ios = b.object("arm-32-ios-armv7s", "cross_ios32");
    ASSERT_GE(ios.size(), 16u);
    EXPECT_EQ(le(ios, 0, 4), 0xfeedfaceu); // MH_MAGIC
    EXPECT_EQ(le(ios, 4, 4), 12u);         // CPU_TYPE_ARM
    EXPECT_EQ(le(ios, 8, 4), 11u);         // CPU_SUBTYPE_ARM_V7S
    EXPECT_EQ(le(ios, 12, 4), 1u);         // MH_OBJECT
}

TEST(CrossCompile, WindowsArm32AndForeignSharedLibrariesAreRefused) {
    Brighter b;
    try {
        b.f.compile_to_file("cross_32", b.args, "brighter", Target("arm-32-windows"));
        ADD_FAILURE() << "arm-32-windows compiled";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("Windows ARM targets must be 64-bit"), std::string::npos) << e.what();
    }
    EXPECT_THROW(b.f.compile_to({{OutputFileType::shared_library, "cross_win.dll"}}, b.args, "brighter",
                                Target("x86-64-windows")),
                 CompileError);
    EXPECT_THROW(compile_standalone_runtime("cross_rt.o", Target("arm-64-linux")), CompileError);
}
