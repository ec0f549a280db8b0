// The C source backend's driver and the boundary of each function: C types
// and identifiers, NAME(args...), NAME_argv, NAME_metadata (the same
// constants the LLVM backend emits, CodeGen_LLVM_Entry.cpp) and the static
// buffers of Buffers embedded in the code. The body is written by stmt().
#include "codegen_c/CodeGen_C.h"

#include <algorithm>
#include <cctype>
#include <iomanip>

#include "Halide/Error.h"
#include "aot/CHeader.h"
#include "codegen/BackendCommon.h"
#include "codegen_c/CPrelude.h"
#include "codegen_c/CodeGen_C_Internal.h"

namespace Halide {
namespace Internal {

namespace {

const char *const kUserContext = "__user_context";

// The types of the entry point's parameters, as the C header declares them.
std::string param_type(const LoweredArgument &a) {
    if (a.is_buffer()) {
        return "struct halide_buffer_t *";
    }
    if (a.type.is_handle()) {
        return "void const *";
    }
    return CodeGen_C::c_type(a.type) + " ";
}

} // namespace

std::string CodeGen_C::c_type(const Type &t) {
    std::string s;
    if (t.is_handle()) {
        s = "void *";
    } else if (t.is_bool()) {
        s = "bool";
    } else if (t.is_float() && t.bits() == 32) {
        s = "float";
    } else if (t.is_float() && t.bits() == 64) {
        s = "double";
    } else if (t.is_int() || t.is_uint()) {
        user_assert(t.bits() == 8 || t.bits() == 16 || t.bits() == 32 || t.bits() == 64)
            << "compile_to_c: no C type for " << type_to_string(t);
        s = std::string(t.is_int() ? "int" : "uint") + std::to_string(t.bits()) + "_t";
    } else {
        user_error << "compile_to_c: the C++ source backend does not support values of type " << type_to_string(t)
                   << " (float16 and bfloat16 have no C++17 type); compile to an object file instead";
    }
    if (t.lanes() > 1) {
        return "hv<" + s + ", " + std::to_string(t.lanes()) + ">";
    }
    return s;
}

std::string CodeGen_C::c_string(const std::string &s) {
    std::ostringstream o;
    o << '"';
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            o << '\\' << c;
        } else if (c >= 32 && c < 127 && c != '?') { // '?' would risk trigraph-like warnings
            o << c;
        } else {
            // Octal escapes end after three digits: no clash with what follows.
            o << '\\' << std::oct << std::setw(3) << std::setfill('0') << (int)c << std::dec;
        }
    }
    o << '"';
    return o.str();
}

std::string CodeGen_C::fresh(const std::string &hint) {
    std::string h = c_identifier(hint);
    if (h.size() > 40) {
        h = h.substr(h.size() - 40);
    }
    return "v" + std::to_string(counter_++) + "_" + h;
}

void CodeGen_C::pop(const std::string &name) {
    auto it = symbols_.find(name);
    internal_assert(it != symbols_.end() && !it->second.empty()) << "compile_to_c: popping unbound " << name;
    it->second.pop_back();
    if (it->second.empty()) {
        symbols_.erase(it);
    }
}

std::string CodeGen_C::sym(const std::string &name) const {
    auto it = symbols_.find(name);
    internal_assert(it != symbols_.end() && !it->second.empty()) << "compile_to_c: symbol not found: " << name;
    return it->second.back();
}

std::ostream &CodeGen_C::line() {
    *body_ << std::string((size_t)indent_ * 4, ' ');
    return *body_;
}

std::string CodeGen_C::entry_signature(const LoweredFunc &f, const std::string &name) const {
    std::ostringstream s;
    s << "int " << name << "(";
    for (size_t i = 0; i < f.args.size(); i++) {
        const LoweredArgument &a = f.args[i];
        s << (i ? ", " : "") << param_type(a) << "_" << c_identifier(a.name) << (a.is_buffer() ? "_buffer" : "");
    }
    s << ")";
    return s.str();
}

void CodeGen_C::compile(const LoweredFunc &f, const std::string &target_string, bool mangle,
                        const std::vector<std::string> &namespaces) {
    func_name_ = f.name;
    symbols_.clear();
    std::ostringstream body;
    body_ = &body;
    indent_ = 1;
    bool have_uc = false;
    for (const LoweredArgument &a : f.args) {
        std::string param = "_" + c_identifier(a.name) + (a.is_buffer() ? "_buffer" : "");
        if (a.is_buffer()) {
            std::string v = fresh(a.name + ".buffer");
            line() << "void *const " << v << " = " << param << ";\n";
            push(a.name + ".buffer", v);
        } else if (a.type.is_handle()) {
            std::string v = fresh(a.name);
            line() << "void *const " << v << " = const_cast<void *>(" << param << ");\n";
            push(a.name, v);
        } else {
            line() << "(void)" << param << ";\n";
            push(a.name, param);
        }
        have_uc = have_uc || a.name == kUserContext;
    }
    if (!have_uc) {
        push(kUserContext, "((void *)nullptr)");
    }
    for (const EmbeddedBuffer &e : f.embedded) {
        push(e.name + ".buffer", "((void *)&" + embedded_buffer(e) + ")");
    }
    stmt(f.body);
    line() << "return 0;\n";
    body_ = nullptr;

    for (const std::string &ns : namespaces) {
        out_ << "namespace " << ns << " {\n";
    }
    if (!mangle) {
        out_ << "extern \"C\" {\n";
    }
    out_ << "\n" << entry_signature(f, f.name) << " {\n" << body.str() << "}\n\n";
    emit_argv(f);
    emit_metadata(f, target_string);
    if (!mangle) {
        out_ << "} // extern \"C\"\n";
    }
    for (size_t i = namespaces.size(); i-- > 0;) {
        out_ << "} // namespace " << namespaces[i] << "\n";
    }
    out_ << "\n";
}

void CodeGen_C::emit_argv(const LoweredFunc &f) {
    out_ << "int " << f.name << "_argv(void **args) {\n    return " << f.name << "(";
    for (size_t i = 0; i < f.args.size(); i++) {
        const LoweredArgument &a = f.args[i];
        out_ << (i ? ", " : "");
        if (a.is_buffer()) {
            out_ << "(struct halide_buffer_t *)args[" << i << "]";
        } else if (a.type.is_bool()) {
            out_ << "*(const uint8_t *)args[" << i << "] != 0";
        } else if (a.type.is_handle()) {
            out_ << "*(void *const *)args[" << i << "]";
        } else {
            out_ << "*(const " << c_type(a.type) << " *)args[" << i << "]";
        }
    }
    out_ << ");\n}\n\n";
}

void CodeGen_C::emit_metadata(const LoweredFunc &f, const std::string &target_string) {
    const std::string p = "h_md_" + f.name + "_";
    std::ostringstream statics, entries;
    int n = 0;
    for (const LoweredArgument &a : f.args) {
        int kind = a.kind == LoweredArgument::Scalar ? 0 : (a.kind == LoweredArgument::InputBuffer ? 1 : 2);
        Type t = a.is_buffer() || !a.type.is_handle() ? a.type : Handle();
        auto scalar = [&](const Expr &e) -> std::string {
            uint64_t bits = 0;
            if (!scalar_constant_bits(e, a.type, &bits)) {
                return "nullptr";
            }
            std::string name = p + "s" + std::to_string(n++);
            statics << "static const halide_scalar_value_t " << name << " = h_scalar_bits(" << bits << "ull);\n";
            return "&" + name;
        };
        std::string def = scalar(a.scalar_def), mn = scalar(a.scalar_min), mx = scalar(a.scalar_max),
                    est = scalar(a.scalar_estimate);
        std::string estimates = "nullptr";
        if (a.is_buffer()) {
            std::vector<std::string> ptrs;
            for (int d = 0; d < std::max(a.dimensions, 1); d++) {
                bool known = (size_t)d < a.buffer_estimates.size();
                for (int k = 0; k < 2; k++) {
                    const Expr &e =
                        !known ? Expr()
                               : (k == 0 ? a.buffer_estimates[(size_t)d].min : a.buffer_estimates[(size_t)d].extent);
                    const IntImm *i = e.defined() ? e.as<IntImm>() : nullptr;
                    if (!i) {
                        ptrs.push_back("nullptr");
                        continue;
                    }
                    std::string name = p + "e" + std::to_string(n++);
                    statics << "static const int64_t " << name << " = " << i->value << "ll;\n";
                    ptrs.push_back("&" + name);
                }
            }
            estimates = p + "e" + std::to_string(n++);
            statics << "static const int64_t *const " << estimates << "[] = {";
            for (size_t i = 0; i < ptrs.size(); i++) {
                statics << (i ? ", " : "") << ptrs[i];
            }
            statics << "};\n";
        }
        entries << "    {" << c_string(a.name) << ", " << kind << ", " << a.dimensions
                << ", halide_type_t((halide_type_code_t)" << (int)t.code() << ", " << t.bits() << ", 1), " << def
                << ", " << mn << ", " << mx << ", " << est << ", " << estimates << "},\n";
    }
    out_ << statics.str();
    std::string args = "nullptr";
    if (!f.args.empty()) {
        args = p + "arguments";
        out_ << "static const halide_filter_argument_t " << args << "[] = {\n" << entries.str() << "};\n";
    }
    out_ << "static const halide_filter_metadata_t " << p << "metadata = {1, " << f.args.size() << ", " << args << ", "
         << c_string(target_string) << ", " << c_string(f.name) << "};\n"
         << "const struct halide_filter_metadata_t *" << f.name << "_metadata() {\n    return &" << p
         << "metadata;\n}\n";
}

std::string CodeGen_C::embedded_buffer(const EmbeddedBuffer &e) {
    const halide_buffer_t &b = *e.buffer;
    int64_t offset = 0;
    std::string bytes = embedded_contents(e, &offset);
    size_t size = bytes.size();
    std::string p = "h_buf_" + func_name_ + "_" + c_identifier(e.name) + "_";
    // Writable, like any buffer handed to a pipeline.
    decls_ << "alignas(128) static uint8_t " << p << "data[" << size << "] = {";
    for (size_t i = 0; i < size; i++) {
        decls_ << (i % 24 == 0 ? "\n    " : "") << (int)(uint8_t)bytes[i] << ",";
    }
    decls_ << "\n};\n";
    std::string dim = "nullptr";
    if (b.dimensions > 0) {
        dim = p + "dim";
        decls_ << "static halide_dimension_t " << dim << "[] = {";
        for (int d = 0; d < b.dimensions; d++) {
            decls_ << (d ? ", " : "") << "{" << b.dim[d].min << ", " << b.dim[d].extent << ", " << b.dim[d].stride
                   << ", 0}";
        }
        decls_ << "};\n";
    }
    decls_ << "static halide_buffer_t " << p << "buffer = {0, nullptr, " << p << "data + " << offset
           << ", 0, halide_type_t((halide_type_code_t)" << (int)b.type.code << ", " << (int)b.type.bits << ", "
           << b.type.lanes << "), " << b.dimensions << ", " << dim << ", nullptr};\n\n";
    return p + "buffer";
}

std::string CodeGen_C::text() const {
    return decls_.str() + out_.str();
}

std::string codegen_c_source(const std::vector<LoweredFunc> &fs, const Target &t,
                             const std::vector<std::string> &namespaces) {
    bool mangle = t.has_feature(Target::CPlusPlusMangling);
    CodeGen_C cg;
    for (const LoweredFunc &f : fs) {
        cg.compile(f, t.to_string(), mangle, namespaces);
    }
    std::ostringstream s;
    s << "// Generated by libhalide's C++ source backend for target " << t.to_string() << ".\n"
      << "// Compile as C++17 with HalideRuntime.h on the include path\n"
      << "// (halide.runtime.get_include()) and link a Halide runtime\n"
      << "// (compile_standalone_runtime, or the runtime library).\n"
      << c_source_prelude() << "\n"
      << cg.text();
    return s.str();
}

} // namespace Internal
} // namespace Halide
