// See Linker.h. lld works on files, so each link runs in a fresh temporary
// directory. lld keeps global state between runs that a later link can trip
// over (lld 19 crashed writing .got.plt in a relocatable link that followed a
// shared one), so each link runs in a forked child, single-threaded, and this
// process's lld state stays as it was when the library was loaded.
#include "codegen/Linker.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
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
    // One thread: the child has none of the parent's worker threads.
    argv.push_back("--threads=1");
    int messages[2];
    internal_assert(pipe(messages) == 0) << "linking " << output << ": pipe failed";
    const pid_t child = fork();
    if (child == 0) {
        close(messages[0]);
        std::string out_text, err_text;
        llvm::raw_string_ostream out(out_text), err(err_text);
        lld::Result r = lld::lldMain(argv, out, err, {{lld::Gnu, &lld::elf::link}});
        err.flush();
        for (size_t done = 0; done < err_text.size();) {
            ssize_t n = write(messages[1], err_text.data() + done, err_text.size() - done);
            if (n <= 0) {
                break;
            }
            done += (size_t)n;
        }
        _exit(r.retCode == 0 ? 0 : 1); // no atexit handlers or destructors of the parent's objects
    }
    close(messages[1]);
    std::string err_text;
    char chunk[4096];
    for (ssize_t n; child > 0 && (n = read(messages[0], chunk, sizeof(chunk))) != 0;) {
        if (n > 0) {
            err_text.append(chunk, (size_t)n);
        } else if (errno != EINTR) {
            break;
        }
    }
    close(messages[0]);
    internal_assert(child > 0) << "linking " << output << ": fork failed";
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    internal_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "linking " << output << " with lld failed:\n"
                                                                   << err_text;
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
