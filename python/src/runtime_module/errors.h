// Kernel failures as Python exceptions.
//
// The runtime's error handler is replaced by one that records messages in
// the current call's ErrorLog instead of aborting. The log follows the call
// onto pool threads (runtime/src/call_context.h), so concurrent calls from
// several Python threads never see each other's messages.
#ifndef HALIDE_PYTHON_ERRORS_H
#define HALIDE_PYTHON_ERRORS_H

#include <pybind11/pybind11.h>

#include <mutex>
#include <string>

namespace halide_python {

struct ErrorLog {
    std::mutex mutex;
    std::string text;
};

// Installs the capturing handler in this process's runtime.
void install_error_capture();

// The handler itself, also installed into kernels' embedded runtimes.
extern "C" void halide_python_capture_error(void *user_context, const char *message);

// Makes `log` the destination for runtime errors on this thread until destroyed.
class ScopedErrorLog {
public:
    explicit ScopedErrorLog(ErrorLog *log);
    ~ScopedErrorLog();
    ScopedErrorLog(const ScopedErrorLog &) = delete;
    ScopedErrorLog &operator=(const ScopedErrorLog &) = delete;

private:
    void *previous_;
};

// Raises halide.runtime.HalideError(message) with .code and .kernel set.
[[noreturn]] void raise_halide_error(const std::string &kernel, int code, const std::string &runtime_message);

// Raises halide.runtime.KernelArgumentError (a TypeError and a
// RuntimeError): arguments that do not fit the kernel's signature.
[[noreturn]] void raise_argument_error(const std::string &message);

// Raises halide.runtime.ScalarRangeError (a ValueError and a RuntimeError):
// a scalar outside its type's range or the kernel's.
[[noreturn]] void raise_range_error(const std::string &message);

// Resolves the exception classes of halide.runtime._errors once, and makes
// ReadOnlyBufferError the one the marshalling code raises; call at module init.
void bind_error_type();

} // namespace halide_python

#endif
