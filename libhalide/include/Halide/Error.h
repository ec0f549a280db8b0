// Errors the compiler reports: CompileError for mistakes in the user's
// program (a clear message naming what was wrong), InternalError for bugs in
// the compiler itself. Both are exceptions; nothing aborts the process.
#ifndef HALIDE_ERROR_H
#define HALIDE_ERROR_H

#include <sstream>
#include <stdexcept>
#include <string>

namespace Halide {

struct Error : std::runtime_error {
    explicit Error(const std::string &msg) : std::runtime_error(msg) {}
};

// The user's program is wrong (an undefined Func, a bad schedule, ...).
struct CompileError : Error {
    explicit CompileError(const std::string &msg) : Error(msg) {}
};

// A pipeline failed while running (JIT): the runtime's message and code.
struct RuntimeError : Error {
    RuntimeError(const std::string &msg, int c) : Error(msg), code(c) {}
    int code;
};

// The compiler broke one of its own invariants.
struct InternalError : Error {
    explicit InternalError(const std::string &msg) : Error(msg) {}
};

namespace Internal {

// Collects a message with <<, then throws E when destroyed.
template <typename E> class ErrorReport {
public:
    ErrorReport(const char *file, int line, const char *condition) {
        if (std::is_same<E, InternalError>::value) {
            msg_ << "Internal error at " << file << ":" << line << ": ";
        }
        if (condition) {
            msg_ << "Condition failed: " << condition << ": ";
        }
    }
    template <typename T> ErrorReport &operator<<(const T &x) {
        msg_ << x;
        return *this;
    }
    [[noreturn]] ~ErrorReport() noexcept(false) { throw E(msg_.str()); }

private:
    std::ostringstream msg_;
};

} // namespace Internal
} // namespace Halide

#define user_error ::Halide::Internal::ErrorReport<::Halide::CompileError>(__FILE__, __LINE__, nullptr)
#define user_assert(c)                                                                                                 \
    if (!(c))                                                                                                          \
    ::Halide::Internal::ErrorReport<::Halide::CompileError>(__FILE__, __LINE__, nullptr)
#define internal_error ::Halide::Internal::ErrorReport<::Halide::InternalError>(__FILE__, __LINE__, nullptr)
#define internal_assert(c)                                                                                             \
    if (!(c))                                                                                                          \
    ::Halide::Internal::ErrorReport<::Halide::InternalError>(__FILE__, __LINE__, #c)

#endif
