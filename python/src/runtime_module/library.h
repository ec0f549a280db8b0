// Loading kernel libraries with dlopen and finding their entry points.
#ifndef HALIDE_PYTHON_LIBRARY_H
#define HALIDE_PYTHON_LIBRARY_H

#include <memory>
#include <string>
#include <vector>

#include "HalideRuntime.h"

namespace halide_python {

// An open shared library. Libraries are never closed: a kernel's code may
// still be referenced (device interfaces, hooks) after its last Kernel dies.
class Library {
public:
    // Opens `path` (RTLD_NOW | RTLD_LOCAL); throws std::runtime_error naming
    // the path and dlerror() on failure. Points the library's own runtime
    // copy, if it has one, at this process's error capture.
    static std::shared_ptr<Library> open(const std::string &path);

    void *symbol(const std::string &name) const;
    // Names NAME for which both NAME_argv and NAME_metadata are exported.
    std::vector<std::string> kernel_names() const;
    const std::string &path() const { return path_; }

private:
    Library(void *handle, std::string path) : handle_(handle), path_(std::move(path)) {}
    void *handle_;
    std::string path_;
};

} // namespace halide_python

#endif
