// See GeneratorStub.h. The header has upstream's shape: the enums of
// enum-valued GeneratorParams at namespace scope (Enum_NAME and
// Enum_NAME_map()), then the stub class (derived from NamesInterface) with
// the structs Inputs, GeneratorParams and Outputs and three static
// generate() overloads (a GeneratorContext, a generator pointer, a Target).
#include "generator/GeneratorStub.h"

#include <cctype>
#include <sstream>
#include <vector>

namespace Halide {
namespace Internal {

namespace {

bool is_identifier(const std::string &s) {
    if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_')) {
        return false;
    }
    for (char c : s) {
        if (!(std::isalnum((unsigned char)c) || c == '_')) {
            return false;
        }
    }
    return true;
}

// "a::b::C" -> {"a", "b", "C"}; each part must be an identifier.
std::vector<std::string> split_qualified(const std::string &name) {
    std::vector<std::string> parts;
    size_t start = name.compare(0, 2, "::") == 0 ? 2 : 0;
    while (true) {
        size_t sep = name.find("::", start);
        parts.push_back(name.substr(start, sep == std::string::npos ? std::string::npos : sep - start));
        user_assert(is_identifier(parts.back())) << "The stub name '" << name << "' is not a C++ class name (ns::Name)";
        if (sep == std::string::npos) {
            return parts;
        }
        start = sep + 2;
    }
}

// The C type of a scalar type ("" if it has none).
std::string c_type_of(const Type &t) {
    if (t.is_bool()) {
        return "bool";
    }
    if (t.is_float() && !t.is_bfloat()) {
        return t.bits() == 32 ? "float" : t.bits() == 64 ? "double" : "";
    }
    if (t.is_int_or_uint() && (t.bits() == 8 || t.bits() == 16 || t.bits() == 32 || t.bits() == 64)) {
        return std::string(t.is_uint() ? "uint" : "int") + std::to_string(t.bits()) + "_t";
    }
    return "";
}

// A Type as C++ source (Halide::UInt(8)).
std::string type_source(const Type &t) {
    if (t.is_bool()) {
        return "Halide::Bool()";
    }
    const char *f = t.is_bfloat() ? "BFloat" : t.is_float() ? "Float" : t.is_uint() ? "UInt" : t.is_int() ? "Int" : "";
    user_assert(*f) << "A stub can't pass the Type " << type_name_of(t);
    return std::string("Halide::") + f + "(" + std::to_string(t.bits()) + ")";
}

std::string string_literal(const std::string &s) {
    std::string r = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            r += '\\';
            r += c;
        } else if (c == '\n') {
            r += "\\n";
        } else {
            r += c;
        }
    }
    return r + "\"";
}

// A number GeneratorParam's value (to_string()) as a literal of type t.
std::string number_literal(const Type &t, const std::string &v) {
    if (t.is_float()) {
        const std::string limits = "std::numeric_limits<" + c_type_of(t) + ">::";
        if (v == "inf" || v == "-inf") {
            return (v[0] == '-' ? "-" : "") + limits + "infinity()";
        }
        if (v == "nan" || v == "-nan") {
            return limits + "quiet_NaN()";
        }
        std::string r = v;
        if (r.find_first_of(".eE") == std::string::npos) {
            r += ".0";
        }
        return t.bits() == 32 ? r + "f" : r;
    }
    if (t.bits() == 64) {
        return v + (t.is_uint() ? "ULL" : "LL");
    }
    return v;
}

std::string loop_level_source(const std::string &v) {
    return v == "root" ? "LoopLevel::root()" : v == "inlined" ? "LoopLevel::inlined()" : "LoopLevel()";
}

struct ParamText {
    std::string name, type, value, to_string;
};

ParamText param_text(const GeneratorParamBase &p, const std::string &generator) {
    const std::string &n = p.name();
    user_assert(is_identifier(n)) << "Generator '" << generator << "': the GeneratorParam '" << n
                                  << "' is not a C++ name; a stub can't pass it";
    const std::string value = p.to_string();
    const std::string field = "generator_params." + n;
    switch (p.kind()) {
    case GeneratorParamKind::Number: {
        Type t = p.number_type();
        user_assert(!c_type_of(t).empty())
            << "A stub can't pass the GeneratorParam '" << n << "' of type " << type_name_of(t);
        return {n, c_type_of(t), number_literal(t, value), "Halide::Internal::generator_param_string(" + field + ")"};
    }
    case GeneratorParamKind::Bool: return {n, "bool", value, "std::string(" + field + " ? \"true\" : \"false\")"};
    case GeneratorParamKind::String: return {n, "std::string", string_literal(value), field};
    case GeneratorParamKind::Type:
        return {n, "Type", type_source(parse_type_name(value)),
                "Halide::Internal::halide_type_to_enum_string(" + field + ")"};
    case GeneratorParamKind::Enum:
        return {n, "Enum_" + n, "Enum_" + n + "::" + value, "Enum_" + n + "_map().at(" + field + ")"};
    case GeneratorParamKind::LoopLevel: return {n, "LoopLevel", loop_level_source(value), field};
    case GeneratorParamKind::Other: break;
    }
    user_error << "Generator '" << generator << "': a stub can't pass the GeneratorParam '" << n
               << "' (its type has no string form)";
    return {};
}

// The element type of a Buffer form: StubInputBuffer<T> / StubOutputBuffer<T>.
std::string buffer_element(const GeneratorIOBase &io, const char *kind) {
    std::string t = io.static_types().size() == 1 ? c_type_of(io.static_types()[0]) : "";
    return std::string("Halide::Internal::") + kind + "<" + t + ">";
}

std::string vector_of(const GeneratorIOBase &io, const std::string &element) {
    return io.is_array() ? "std::vector<" + element + ">" : element;
}

std::string input_type(const GeneratorIOBase &in) {
    switch (in.kind()) {
    case ArgInfoKind::Buffer: return vector_of(in, buffer_element(in, "StubInputBuffer"));
    case ArgInfoKind::Function: return vector_of(in, "Func");
    case ArgInfoKind::Scalar: break;
    }
    return vector_of(in, "Expr");
}

// The value bind_input() is given for Input `in`.
std::string input_binding(const GeneratorIOBase &in) {
    const std::string field = "inputs." + in.name();
    switch (in.kind()) {
    case ArgInfoKind::Buffer: return buffer_element(in, "StubInputBuffer") + "::to_parameter_vector(" + field + ")";
    case ArgInfoKind::Function: return in.is_array() ? field : "std::vector<Halide::Func>{" + field + "}";
    case ArgInfoKind::Scalar: break;
    }
    return in.is_array() ? field : "std::vector<Halide::Expr>{" + field + "}";
}

std::string output_type(const GeneratorIOBase &out) {
    return vector_of(out, out.kind() == ArgInfoKind::Buffer ? buffer_element(out, "StubOutputBuffer") : "Func");
}

std::string output_value(const GeneratorIOBase &out) {
    std::string funcs = "generator->output_func(\"" + out.name() + "\")";
    if (out.kind() == ArgInfoKind::Buffer) {
        funcs = buffer_element(out, "StubOutputBuffer") + "::to_output_buffers(" + funcs + ", generator)";
    }
    return out.is_array() ? funcs : funcs + ".at(0)";
}

// A struct's constructor taking every field, after a default one.
void write_constructor(std::ostringstream &o, const std::string &name,
                       const std::vector<std::pair<std::string, std::string>> &fields) {
    // User-provided, not "= default": a default argument GeneratorParams()
    // in the enclosing class needs the default member initializers before
    // that class is complete otherwise.
    o << "        " << name << "() {}\n";
    if (fields.empty()) {
        return;
    }
    o << "        " << name << "(";
    for (size_t i = 0; i < fields.size(); i++) {
        o << (i ? ", " : "") << "const " << fields[i].first << " &" << fields[i].second;
    }
    o << ")\n            : ";
    for (size_t i = 0; i < fields.size(); i++) {
        o << (i ? ", " : "") << fields[i].second << "(" << fields[i].second << ")";
    }
    o << " {}\n";
}

} // namespace

std::string generator_stub_source(GeneratorBase &g) {
    const std::string &registered = g.registered_name();
    user_assert(is_identifier(registered)) << "The generator name '" << registered << "' is not a C++ name";
    std::vector<std::string> qualified = split_qualified(g.stub_name().empty() ? registered : g.stub_name());
    const std::string cls = qualified.back();
    qualified.pop_back();
    g.ensure_configured();

    std::vector<ParamText> params;
    for (const GeneratorParamBase *p : g.generator_params()) {
        params.push_back(param_text(*p, registered));
    }
    for (const GeneratorIOBase *io : g.inputs()) {
        user_assert(is_identifier(io->name())) << "The Input '" << io->name() << "' is not a C++ name";
    }
    for (const GeneratorIOBase *io : g.outputs()) {
        user_assert(is_identifier(io->name())) << "The Output '" << io->name() << "' is not a C++ name";
    }

    std::string guard = "HALIDE_STUB";
    for (const std::string &n : qualified) {
        guard += "_" + n;
    }
    guard += "_" + cls;

    std::ostringstream o;
    o << "// The C++ stub of the generator '" << registered << "', written by its generator (-e cpp_stub).\n"
      << "// Machine-generated: do not edit. A generator that includes it calls\n"
      << "// " << cls << "::generate(context(), inputs, generator_params) in its generate() and links\n"
      << "// the code of '" << registered << "'.\n"
      << "#ifndef " << guard << "\n#define " << guard << "\n\n"
      << "#include <limits>\n#include <map>\n#include <memory>\n#include <string>\n#include <utility>\n"
      << "#include <vector>\n\n#include \"Halide.h\"\n\n"
      << "namespace halide_register_generator {\nnamespace " << registered << "_ns {\n"
      << "std::unique_ptr<Halide::Internal::AbstractGenerator> factory(const Halide::GeneratorContext &context);\n"
      << "} // namespace " << registered << "_ns\n} // namespace halide_register_generator\n\n";
    for (const std::string &n : qualified) {
        o << "namespace " << n << " {\n";
    }
    if (!qualified.empty()) {
        o << "\n";
    }

    for (const GeneratorParamBase *p : g.generator_params()) {
        if (p->kind() != GeneratorParamKind::Enum) {
            continue;
        }
        // Guarded by its values: stubs in one namespace with the same enum
        // (an alias and its generator) share it; different ones clash.
        const std::string e = "Enum_" + p->name();
        std::string enum_guard = "HALIDE_STUB_ENUM";
        for (const std::string &n : qualified) {
            enum_guard += "_" + n;
        }
        enum_guard += "_" + e + "_";
        for (const std::string &v : p->enum_names()) {
            user_assert(is_identifier(v)) << "The value '" << v << "' of the GeneratorParam '" << p->name()
                                          << "' is not a C++ name; a stub can't pass it";
            enum_guard += "_" + v;
        }
        o << "#ifndef " << enum_guard << "\n#define " << enum_guard << "\n";
        o << "enum class " << e << " {\n";
        for (const std::string &v : p->enum_names()) {
            o << "    " << v << ",\n";
        }
        o << "};\n\ninline const std::map<" << e << ", std::string> &" << e << "_map() {\n"
          << "    static const std::map<" << e << ", std::string> names = {\n";
        for (const std::string &v : p->enum_names()) {
            o << "        {" << e << "::" << v << ", \"" << v << "\"},\n";
        }
        o << "    };\n    return names;\n}\n#endif\n\n";
    }

    o << "class " << cls << " final : public Halide::NamesInterface {\npublic:\n";

    // Inputs: one field per Input, in declaration order.
    std::vector<std::pair<std::string, std::string>> fields;
    o << "    struct Inputs final {\n";
    for (const GeneratorIOBase *in : g.inputs()) {
        o << "        " << input_type(*in) << " " << in->name() << ";\n";
        fields.emplace_back(input_type(*in), in->name());
    }
    o << "\n";
    write_constructor(o, "Inputs", fields);
    o << "    };\n\n";

    // GeneratorParams: the declared values by default.
    fields.clear();
    o << "    struct GeneratorParams final {\n";
    for (const ParamText &p : params) {
        o << "        " << p.type << " " << p.name << "{" << p.value << "};\n";
        fields.emplace_back(p.type, p.name);
    }
    o << "\n";
    write_constructor(o, "GeneratorParams", fields);
    o << "    };\n\n";

    // Outputs, and the target they were built for.
    bool all_funcs = true;
    o << "    struct Outputs final {\n";
    for (const GeneratorIOBase *out : g.outputs()) {
        o << "        " << output_type(*out) << " " << out->name() << ";\n";
        all_funcs = all_funcs && out->kind() != ArgInfoKind::Buffer && !out->is_array();
    }
    o << "        Target target;\n";
    if (all_funcs) {
        o << "\n        Halide::Pipeline get_pipeline() const {\n"
          << "            return Halide::Pipeline(std::vector<Halide::Func>{";
        for (size_t i = 0; i < g.outputs().size(); i++) {
            o << (i ? ", " : "") << g.outputs()[i]->name();
        }
        o << "});\n        }\n"
          << "        Halide::Realization realize(std::vector<int32_t> sizes) {\n"
          << "            return get_pipeline().realize(std::move(sizes), target);\n        }\n"
          << "        template <typename... Args,\n"
          << "                  typename std::enable_if<Halide::Internal::NoRealizations<Args...>::value>::type * = "
             "nullptr>\n"
          << "        Halide::Realization realize(Args &&...args) {\n"
          << "            return get_pipeline().realize(std::forward<Args>(args)..., target);\n        }\n"
          << "        void realize(Halide::Realization r) { get_pipeline().realize(r, target); }\n";
    } else {
        o << "        // No get_pipeline() or realize(): not every Output is a Func.\n";
    }
    o << "    };\n\n";

    // generate(): the generator made with `context`, its GeneratorParams
    // set, its Inputs bound, built; its Outputs.
    const std::string args = "const Inputs &inputs, const GeneratorParams &generator_params = GeneratorParams()";
    o << "    HALIDE_NO_USER_CODE_INLINE static Outputs generate(const GeneratorContext &context, " << args << ") {\n"
      << "        std::shared_ptr<Halide::Internal::AbstractGenerator> generator =\n"
      << "            halide_register_generator::" << registered << "_ns::factory(context);\n";
    for (const ParamText &p : params) {
        o << "        generator->set_generatorparam_value(\"" << p.name << "\", " << p.to_string << ");\n";
    }
    if (params.empty()) {
        o << "        (void)generator_params;\n";
    }
    for (const GeneratorIOBase *in : g.inputs()) {
        o << "        generator->bind_input(\"" << in->name() << "\", " << input_binding(*in) << ");\n";
    }
    o << "        generator->build_pipeline();\n        return {\n";
    for (const GeneratorIOBase *out : g.outputs()) {
        o << "            " << output_value(*out) << ",\n";
    }
    o << "            generator->context().target(),\n        };\n    }\n\n"
      << "    // The context of `generator` (pass `this` from a generator's generate()).\n"
      << "    static Outputs generate(const Halide::Internal::GeneratorBase *generator, " << args << ") {\n"
      << "        return generate(generator->context(), inputs, generator_params);\n    }\n\n"
      << "    static Outputs generate(const Target &target, " << args << ") {\n"
      << "        return generate(Halide::GeneratorContext(target), inputs, generator_params);\n    }\n\n"
      << "    " << cls << "() = delete;\n};\n";

    if (!qualified.empty()) {
        o << "\n";
    }
    for (size_t i = qualified.size(); i-- > 0;) {
        o << "} // namespace " << qualified[i] << "\n";
    }
    o << "\n#endif // " << guard << "\n";
    return o.str();
}

} // namespace Internal
} // namespace Halide
