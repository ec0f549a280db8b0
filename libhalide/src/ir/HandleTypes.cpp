// The C++ types behind handles (HandleTypes.h): comparing them, and the C
// and C++ spelling of any Type (type_to_c_type).
#include "Halide/HandleTypes.h"

#include "Halide/Type.h"

namespace Halide {

namespace Internal {

std::string extract_namespaces(const std::string &name, std::vector<std::string> &namespaces) {
    size_t start = 0;
    for (size_t sep = name.find("::"); sep != std::string::npos; sep = name.find("::", start)) {
        namespaces.push_back(name.substr(start, sep - start));
        start = sep + 2;
    }
    return name.substr(start);
}

} // namespace Internal

namespace {

// No handle type stands for void *.
const halide_handle_cplusplus_type *or_void_pointer(const halide_handle_cplusplus_type *t) {
    return t ? t : halide_handle_traits<void *>::type_info();
}

// Upstream's spellings, vectors included: "int32x4_t", "float4",
// "float16_t8", a bool vector as "uint8x4_t", a bfloat16 vector as a scalar.
std::string number_c_name(const Type &t) {
    std::string lanes = t.is_vector() ? std::to_string(t.lanes()) : "";
    if (t.is_bool()) {
        return t.is_vector() ? "uint8x" + lanes + "_t" : "bool";
    }
    if (t.is_bfloat()) {
        return "bfloat" + std::to_string(t.bits()) + "_t";
    }
    if (t.is_float()) {
        std::string base = t.bits() == 32   ? "float"
                           : t.bits() == 64 ? "double"
                                            : "float" + std::to_string(t.bits()) + "_t";
        return base + lanes;
    }
    return std::string(t.is_uint() ? "uint" : "int") + std::to_string(t.bits()) + (lanes.empty() ? "" : "x" + lanes) +
           "_t";
}

std::string handle_c_name(const halide_handle_cplusplus_type *h, bool c_plus_plus) {
    if (!h) {
        return "void *";
    }
    if (!c_plus_plus && !(h->namespaces.empty() && h->enclosing_types.empty())) {
        return "void *"; // C has no namespaces
    }
    std::string s;
    switch (h->inner_name.cpp_type_type) {
    case halide_cplusplus_type_name::Struct: s = "struct "; break;
    case halide_cplusplus_type_name::Class: s = "class "; break;
    case halide_cplusplus_type_name::Union: s = "union "; break;
    case halide_cplusplus_type_name::Enum: s = "enum "; break;
    case halide_cplusplus_type_name::Simple: break;
    }
    if (!h->namespaces.empty() || !h->enclosing_types.empty()) {
        for (const std::string &ns : h->namespaces) {
            s += "::" + ns;
        }
        for (const halide_cplusplus_type_name &outer : h->enclosing_types) {
            s += "::" + outer.name;
        }
        s += "::";
    }
    s += h->inner_name.name;
    for (uint8_t m : h->cpp_type_modifiers) {
        if (m & halide_handle_cplusplus_type::FunctionTypedef) {
            continue; // named as a whole by its typedef
        }
        if (m & halide_handle_cplusplus_type::Const) {
            s += " const";
        }
        if (m & halide_handle_cplusplus_type::Volatile) {
            s += " volatile";
        }
        if (m & halide_handle_cplusplus_type::Restrict) {
            s += " restrict";
        }
        if (m & halide_handle_cplusplus_type::Pointer) {
            s += " *";
        }
    }
    if (h->reference_type == halide_handle_cplusplus_type::LValueReference) {
        s += " &";
    } else if (h->reference_type == halide_handle_cplusplus_type::RValueReference) {
        s += " &&";
    }
    return s;
}

} // namespace

bool Type::same_handle_type(const Type &other) const {
    const halide_handle_cplusplus_type *a = or_void_pointer(handle_type);
    const halide_handle_cplusplus_type *b = or_void_pointer(other.handle_type);
    return a == b || (a->inner_name == b->inner_name && a->namespaces == b->namespaces &&
                      a->enclosing_types == b->enclosing_types && a->cpp_type_modifiers == b->cpp_type_modifiers &&
                      a->reference_type == b->reference_type);
}

std::string type_to_c_type(Type type, bool include_space, bool c_plus_plus) {
    std::string s;
    if (type.is_handle()) {
        s = handle_c_name(type.handle_type, c_plus_plus);
    } else {
        s = number_c_name(type);
    }
    if (include_space && s.back() != '*') {
        s += " ";
    }
    return s;
}

} // namespace Halide
