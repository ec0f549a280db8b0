// Lesson 11: compiling for other machines. compile_to_file takes a Target;
// the same pipeline compiles to object files for other instruction sets
// and architectures than the one running the compiler. The program checks
// the first bytes of each object file: the ELF, COFF or Mach-O header and
// the machine it names.
//
// Differs from upstream: objects for another machine than this one (other
// operating systems, 32-bit x86 and ARM) hold the kernel alone, without the
// runtime (docs/aot.md). Like upstream's lesson, 32-bit ARM Android and
// ARMv7s iOS are among the targets; so are 32-bit x86 Linux and Windows.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

namespace {

std::vector<uint8_t> read_file(const std::string &path) {
    std::vector<uint8_t> bytes;
    if (FILE *f = std::fopen(path.c_str(), "rb")) {
        uint8_t buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
            bytes.insert(bytes.end(), buf, buf + n);
        std::fclose(f);
    }
    return bytes;
}

uint16_t le16(const std::vector<uint8_t> &b, size_t at) {
    return (uint16_t)(b[at] | (b[at + 1] << 8));
}
uint32_t le32(const std::vector<uint8_t> &b, size_t at) {
    return le16(b, at) | ((uint32_t)le16(b, at + 2) << 16);
}

} // namespace

int main() {
    Func brighter("brighter");
    Var x("x"), y("y");
    Param<uint8_t> offset("offset");
    ImageParam input(UInt(8), 2, "input");
    brighter(x, y) = input(x, y) + offset;
    brighter.vectorize(x, 16).parallel(y);
    std::vector<Argument> args = {input, offset};

    struct Case {
        const char *target, *prefix;
        // ELF: class (1 = 32-bit, 2 = 64-bit) and e_machine; COFF: machine;
        // Mach-O: magic, cputype and cpusubtype (0: not checked).
        enum Format { ELF, COFF, MachO } format;
        uint32_t bits_or_magic, machine, subtype = 0;
    };
    const Case cases[] = {
        {"x86-64-linux-sse41", "lesson_11_x86_64_sse41", Case::ELF, 2, 62 /* EM_X86_64 */},
        {"x86-64-linux-avx-avx2-fma-f16c-sse41", "lesson_11_x86_64_avx2", Case::ELF, 2, 62},
        {"x86-64-linux-avx512_skylake-avx-avx2-fma-f16c-sse41", "lesson_11_x86_64_avx512", Case::ELF, 2, 62},
        {"arm-64-linux-no_runtime", "lesson_11_arm_64_linux", Case::ELF, 2, 183 /* EM_AARCH64 */},
        {"arm-32-android", "lesson_11_arm_32_android", Case::ELF, 1, 40 /* EM_ARM */},
        {"x86-64-windows", "lesson_11_x86_64_windows", Case::COFF, 0, 0x8664 /* AMD64 */},
        {"x86-32-windows", "lesson_11_x86_32_windows", Case::COFF, 0, 0x14c /* I386 */},
        {"arm-64-ios", "lesson_11_arm_64_ios", Case::MachO, 0xfeedfacf, 0x0100000c /* arm64 */},
        {"arm-32-ios-armv7s", "lesson_11_arm_32_ios", Case::MachO, 0xfeedface, 12 /* arm */, 11 /* armv7s */},
        {"x86-32-linux", "lesson_11_x86_32_linux", Case::ELF, 1, 3 /* EM_386 */},
        {"x86-64-osx", "lesson_11_x86_64_osx", Case::MachO, 0xfeedfacf, 0x01000007 /* x86_64 */},
    };
    for (const Case &c : cases) {
        Target target(c.target);
        try {
            brighter.compile_to_file(c.prefix, args, "brighter", target);
        } catch (const CompileError &e) {
            tutorial::fail("%s: compile_to_file failed: %s", c.target, e.what());
            continue;
        }
        std::vector<uint8_t> obj = read_file(std::string(c.prefix) + ".o");
        if (obj.empty())
            obj = read_file(std::string(c.prefix) + ".obj"); // upstream's name on Windows
        std::vector<uint8_t> hdr = read_file(std::string(c.prefix) + ".h");
        if (obj.size() < 64) {
            tutorial::fail("%s: no object file", c.target);
            continue;
        }
        tutorial::check(!hdr.empty(), "a header is written with the object");
        switch (c.format) {
        case Case::ELF:
            if (std::memcmp(obj.data(),
                            "\x7f"
                            "ELF",
                            4) != 0 ||
                obj[4] != c.bits_or_magic || le16(obj, 18) != c.machine) {
                tutorial::fail("%s: not an ELF%d object for machine %u (class %d, machine %u)", c.target,
                               c.bits_or_magic == 2 ? 64 : 32, c.machine, obj[4], le16(obj, 18));
            }
            break;
        case Case::COFF:
            if (le16(obj, 0) != c.machine)
                tutorial::fail("%s: COFF machine %x", c.target, le16(obj, 0));
            break;
        case Case::MachO:
            if (le32(obj, 0) != c.bits_or_magic || le32(obj, 4) != c.machine ||
                (c.subtype && le32(obj, 8) != c.subtype)) {
                tutorial::fail("%s: Mach-O magic %x cputype %x subtype %x", c.target, le32(obj, 0), le32(obj, 4),
                               le32(obj, 8));
            }
            break;
        }
        std::printf("%s: %d-byte object\n", c.target, (int)obj.size());
        std::remove((std::string(c.prefix) + ".o").c_str());
        std::remove((std::string(c.prefix) + ".obj").c_str());
        std::remove((std::string(c.prefix) + ".h").c_str());
    }
    return tutorial::finish("lesson_11_cross_compilation");
}
