// See Linker.h. lld works on files, so each link runs in a fresh temporary
// directory. Links are serialized: lld keeps global state between runs.
#include "codegen/Linker.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <pthread.h>
#include <sstream>

#include "Halide/Error.h"
#include "codegen/LLVM_Headers.h"

#include <lld/Common/Driver.h>

LLD_HAS_DRIVER(elf)

extern "C" void _Unwind_Resume(void *); // in libgcc_s, which C++ code may need

namespace Halide {
namespace Internal {

// In the generated runtime_objects.cpp (libhalide/tools/embed_runtime.py).
extern const unsigned char halide_runtime_objects[];
extern const size_t halide_runtime_objects_size;

namespace {

std::mutex link_mutex;

class TempDir {
public:
    TempDir() {
        const char *base = getenv("TMPDIR");
        std::string pattern = std::string(base && *base ? base : "/tmp") + "/halide-link-XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        user_assert(mkdtemp(buf.data())) << "Can't create a temporary directory in " << pattern;
        path_ = buf.data();
    }
    ~TempDir() {
        for (const std::string &f : files_) {
            std::remove(f.c_str());
        }
        rmdir(path_.c_str());
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;

    std::string file(const std::string &name) {
        files_.push_back(path_ + "/" + name);
        return files_.back();
    }
    std::string write(const std::string &name, const std::string &bytes) {
        std::string p = file(name);
        std::ofstream out(p, std::ios::binary);
        out.write(bytes.data(), (std::streamsize)bytes.size());
        user_assert(out.good()) << "Can't write " << p;
        return p;
    }

private:
    std::string path_;
    std::vector<std::string> files_;
};

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    user_assert(in.good()) << "Can't read " << path;
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string run_lld(std::vector<std::string> args, const std::string &output) {
    std::lock_guard<std::mutex> lock(link_mutex);
    args.insert(args.begin(), "ld.lld");
    args.push_back("-o");
    args.push_back(output);
    std::vector<const char *> argv;
    for (const std::string &a : args) {
        argv.push_back(a.c_str());
    }
    std::string out_text, err_text;
    llvm::raw_string_ostream out(out_text), err(err_text);
    lld::Result r = lld::lldMain(argv, out, err, {{lld::Gnu, &lld::elf::link}});
    out.flush();
    err.flush();
    internal_assert(r.retCode == 0) << "linking " << output << " with lld failed:\n" << err_text;
    return read_file(output);
}

// The file a symbol of this process comes from (to name the C and C++
// libraries the runtime needs, as they are installed here).
std::string library_of(const void *symbol) {
    Dl_info info;
    if (dladdr(symbol, &info) && info.dli_fname) {
        return info.dli_fname;
    }
    return std::string();
}

} // namespace

const std::vector<std::pair<std::string, std::string>> &runtime_objects() {
    static const std::vector<std::pair<std::string, std::string>> objects = [] {
        std::vector<std::pair<std::string, std::string>> result;
        const unsigned char *p = halide_runtime_objects, *end = p + halide_runtime_objects_size;
        auto take = [&](size_t n) {
            internal_assert((size_t)(end - p) >= n) << "the embedded runtime is corrupt";
            const unsigned char *at = p;
            p += n;
            return at;
        };
        auto number = [&](size_t bytes) {
            uint64_t v = 0;
            const unsigned char *at = take(bytes);
            for (size_t i = 0; i < bytes; i++) {
                v |= (uint64_t)at[i] << (8 * i);
            }
            return (size_t)v;
        };
        while (p < end) {
            size_t name_len = number(4);
            std::string name((const char *)take(name_len), name_len);
            size_t size = number(8);
            result.emplace_back(name, std::string((const char *)take(size), size));
        }
        return result;
    }();
    return objects;
}

std::string link_relocatable(const std::vector<std::string> &objects) {
    TempDir dir;
    std::vector<std::string> args = {"-r"};
    for (size_t i = 0; i < objects.size(); i++) {
        args.push_back(dir.write("input" + std::to_string(i) + ".o", objects[i]));
    }
    return run_lld(args, dir.file("output.o"));
}

std::string link_shared_library(const std::vector<std::string> &objects, const std::string &soname) {
    TempDir dir;
    std::vector<std::string> args = {"-shared", "-soname", soname, "-z", "noexecstack", "--eh-frame-hdr"};
    for (size_t i = 0; i < objects.size(); i++) {
        args.push_back(dir.write("input" + std::to_string(i) + ".o", objects[i]));
    }
    // Record the C libraries the kernel and its runtime call into (libc,
    // libpthread, libdl, libm; libgcc_s only if compiler support routines
    // are called). The runtime needs no libstdc++ (runtime/meson.build).
    args.push_back("--as-needed");
    for (const void *symbol :
         {(const void *)&::free, (const void *)&::pthread_create, (const void *)&::dlsym,
          (const void *)static_cast<double (*)(double)>(&std::cos), (const void *)&_Unwind_Resume}) {
        std::string lib = library_of(symbol);
        if (!lib.empty() && lib.find(".so") != std::string::npos) {
            args.push_back(lib);
        }
    }
    return run_lld(args, dir.file("output.so"));
}

} // namespace Internal
} // namespace Halide
