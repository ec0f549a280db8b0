// Errors the compiler reports: CompileError for mistakes in the user's
// program (a clear message naming what was wrong), InternalError for bugs in
// the compiler itself. Both are exceptions; nothing aborts the process.
#ifndef HALIDE_ERROR_H
#define HALIDE_ERROR_H

#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace Halide {

// Whether the compiler reports errors by throwing (upstream can be built to
// abort instead); this one always throws, so it returns true.
bool exceptions_enabled();

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

// Receives the compiler's warnings and errors instead of stderr and
// exceptions, as upstream's: error() must not return.
class CompileTimeErrorReporter {
public:
    virtual ~CompileTimeErrorReporter() = default;
    virtual void warning(const char *msg) = 0;
    [[noreturn]] virtual void error(const char *msg) = 0;
};

// nullptr restores the default (warnings to stderr, errors thrown).
void set_custom_compile_time_error_reporter(CompileTimeErrorReporter *error_reporter);

namespace Internal {

// A user error's text as ErrorReport makes it ("Error: <msg>\n"), for code
// that throws CompileError itself.
std::string user_error_text(const std::string &msg);

// Prints a warning (user_warning's "Warning: <msg>\n") on stderr, or hands
// it to the custom reporter.
void issue_warning(const char *warning);
// The custom reporter, if any, gets a user error's message first.
void report_error_to_custom_reporter(const std::string &msg);

// Collects a message with <<, then throws E when destroyed.
template <typename E> class ErrorReport {
public:
    // As upstream's: a user (or runtime) error reads "Error: <message>\n",
    // an internal one names where the compiler failed.
    ErrorReport(const char *file, int line, const char *condition) {
        if (std::is_same<E, InternalError>::value) {
            msg_ << "Internal error at " << file << ":" << line << ": ";
        } else {
            msg_ << "Error: ";
        }
        if (condition) {
            msg_ << "Condition failed: " << condition << ": ";
        }
    }
    template <typename T> ErrorReport &operator<<(const T &x) {
        msg_ << x;
        return *this;
    }
    [[noreturn]] ~ErrorReport() noexcept(false) {
        std::string m = msg_.str();
        if (m.back() != '\n') {
            m += '\n';
        }
        report_error_to_custom_reporter(m);
        if constexpr (std::is_same<E, RuntimeError>::value) {
            throw E(m, -1);
        } else {
            throw E(m);
        }
    }

private:
    std::ostringstream msg_;
};

// Collects a message with <<, then prints it as a warning when destroyed.
class WarningReport {
public:
    WarningReport() { msg_ << "Warning: "; }
    template <typename T> WarningReport &operator<<(const T &x) {
        msg_ << x;
        return *this;
    }
    ~WarningReport() {
        std::string m = msg_.str();
        if (m.empty() || m.back() != '\n') {
            m += '\n';
        }
        issue_warning(m.c_str());
    }

private:
    std::ostringstream msg_;
};

} // namespace Internal
} // namespace Halide

// Stream-style reports, as upstream's: `user_assert(cond) << "message";`
// throws CompileError when cond is false (the message is only evaluated
// then), `user_error << ...` always; internal_* throw InternalError,
// halide_runtime_error RuntimeError; user_warning prints and goes on.
// The _halide_ names are upstream's spelling for code outside its headers
// (its Halide.h undefines the short ones unless HALIDE_KEEP_MACROS is
// defined; ours keeps both).
#define _halide_user_error ::Halide::Internal::ErrorReport<::Halide::CompileError>(__FILE__, __LINE__, nullptr)
#define _halide_user_assert(c)                                                                                         \
    if (!(c))                                                                                                          \
    ::Halide::Internal::ErrorReport<::Halide::CompileError>(__FILE__, __LINE__, nullptr)
#define _halide_internal_error ::Halide::Internal::ErrorReport<::Halide::InternalError>(__FILE__, __LINE__, nullptr)
#define _halide_internal_assert(c)                                                                                     \
    if (!(c))                                                                                                          \
    ::Halide::Internal::ErrorReport<::Halide::InternalError>(__FILE__, __LINE__, #c)
#define _halide_runtime_error ::Halide::Internal::ErrorReport<::Halide::RuntimeError>(__FILE__, __LINE__, nullptr)
#define _halide_user_warning ::Halide::Internal::WarningReport()

#define user_error _halide_user_error
#define user_assert(c) _halide_user_assert(c)
#define internal_error _halide_internal_error
#define internal_assert(c) _halide_internal_assert(c)
#define halide_runtime_error _halide_runtime_error
#define user_warning _halide_user_warning

#endif
