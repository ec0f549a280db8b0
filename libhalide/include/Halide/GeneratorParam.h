// GeneratorParam<T>: a Generator's compile-time parameter, settable by name
// from a string (the generator command line, key=value). See Generator.h.
#ifndef HALIDE_GENERATOR_PARAM_H
#define HALIDE_GENERATOR_PARAM_H

#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "Halide/Error.h"
#include "Halide/Schedule.h"
#include "Halide/Type.h"

namespace Halide {

namespace Internal {

// "uint8", "int32", "float32", "bool", ... (throws CompileError otherwise).
Type parse_type_name(const std::string &name);
std::string type_name_of(const Type &t);
// Upstream's name for type_name_of (a GeneratorParam<Type>'s value as a string).
inline std::string halide_type_to_enum_string(const Type &t) {
    return type_name_of(t);
}

// What a GeneratorParam holds, as the C++ stub (emit kind cpp_stub)
// declares it: a number (number_type()), bool, std::string, Type, an enum
// (enum_names()), a LoopLevel, or something the stub can't pass.
enum class GeneratorParamKind { Number, Bool, String, Type, Enum, LoopLevel, Other };

class GeneratorBase;

class GeneratorParamBase {
public:
    explicit GeneratorParamBase(const std::string &name);
    virtual ~GeneratorParamBase() = default;
    GeneratorParamBase(const GeneratorParamBase &) = delete;
    GeneratorParamBase &operator=(const GeneratorParamBase &) = delete;

    const std::string &name() const { return name_; }
    virtual void set_from_string(const std::string &value) = 0;
    virtual std::string to_string() const = 0;
    // False for the implicit NAME.type/.dim/.size of an Input or Output
    // whose declaration already fixes that value (setting it is an error).
    virtual bool settable() const { return true; }
    // GeneratorParam<LoopLevel> only (set_generatorparam_value with a LoopLevel).
    virtual bool is_loop_level() const { return false; }
    virtual void set_loop_level(const LoopLevel &) {}
    // For the C++ stub: the kind of value, the type of a Number, the names
    // of an Enum's values (to_string() is the current one's).
    virtual GeneratorParamKind kind() const { return GeneratorParamKind::Other; }
    virtual Type number_type() const { return Type(); }
    virtual std::vector<std::string> enum_names() const { return {}; }

protected:
    // Throws CompileError (upstream's words) once the generator's generate()
    // has been called: a GeneratorParam is then read-only.
    void check_writable() const;

    std::string name_;
    GeneratorBase *generator_ = nullptr; // the generator it is a member of (none outside one)
};

template <typename T> T parse_scalar(const std::string &name, const std::string &value) {
    std::istringstream in(value);
    if constexpr (std::is_same<T, bool>::value) {
        user_assert(value == "true" || value == "false")
            << "GeneratorParam '" << name << "' is a bool: give true or false, not '" << value << "'";
        return value == "true";
    } else {
        using Read = std::conditional_t<sizeof(T) == 1, int, T>; // read int8/uint8 as numbers
        Read v{};
        in >> v;
        user_assert(!in.fail() && in.eof()) << "GeneratorParam '" << name << "' needs a number, not '" << value << "'";
        return (T)v;
    }
}

} // namespace Internal

// A compile-time parameter: bool, integer, floating point, std::string,
// Type, or an enum with a name -> value map (set by name on the command line).
template <typename T> class GeneratorParam : public Internal::GeneratorParamBase {
public:
    GeneratorParam(const std::string &name, const T &value) : GeneratorParamBase(name), value_(value) {}
    GeneratorParam(const std::string &name, const T &value, const T &min, const T &max)
        : GeneratorParamBase(name), value_(value), min_(min), max_(max), has_range_(true) {
        check_range();
    }
    GeneratorParam(const std::string &name, const T &value, const std::map<std::string, T> &names)
        : GeneratorParamBase(name), value_(value), names_(names) {}

    const T &value() const { return value_; }
    // In expressions a numeric GeneratorParam is its value (a constant).
    operator T() const { return value_; }
    // Before generate() runs only, as upstream.
    void set(const T &v) {
        check_writable();
        value_ = v;
        check_range();
    }
    GeneratorParam &operator=(const T &v) {
        set(v);
        return *this;
    }

    void set_from_string(const std::string &s) override {
        check_writable();
        if (!names_.empty()) {
            auto it = names_.find(s);
            std::string known;
            for (const auto &kv : names_) {
                known += (known.empty() ? "" : ", ") + kv.first;
            }
            user_assert(it != names_.end())
                << "GeneratorParam '" << name_ << "' can't be '" << s << "'; it is one of: " << known;
            value_ = it->second;
        } else if constexpr (std::is_same<T, std::string>::value) {
            value_ = s;
        } else if constexpr (std::is_same<T, Type>::value) {
            value_ = Internal::parse_type_name(s);
        } else if constexpr (std::is_arithmetic<T>::value) {
            value_ = Internal::parse_scalar<T>(name_, s);
        } else {
            user_error << "GeneratorParam '" << name_ << "' can't be set from a string";
        }
        check_range();
    }

    Internal::GeneratorParamKind kind() const override {
        using K = Internal::GeneratorParamKind;
        if (!names_.empty()) {
            return K::Enum;
        } else if constexpr (std::is_same<T, bool>::value) {
            return K::Bool;
        } else if constexpr (std::is_arithmetic<T>::value) {
            return K::Number;
        } else if constexpr (std::is_same<T, std::string>::value) {
            return K::String;
        } else if constexpr (std::is_same<T, Type>::value) {
            return K::Type;
        }
        return K::Other;
    }
    Type number_type() const override {
        if constexpr (std::is_arithmetic<T>::value) {
            return type_of<T>();
        }
        return Type();
    }
    std::vector<std::string> enum_names() const override {
        std::vector<std::string> names;
        for (const auto &kv : names_) {
            names.push_back(kv.first);
        }
        return names;
    }

    std::string to_string() const override {
        for (const auto &kv : names_) {
            if (kv.second == value_) {
                return kv.first;
            }
        }
        if constexpr (std::is_same<T, std::string>::value) {
            return value_;
        } else if constexpr (std::is_same<T, Type>::value) {
            return Internal::type_name_of(value_);
        } else if constexpr (std::is_same<T, bool>::value) {
            return value_ ? "true" : "false";
        } else if constexpr (std::is_arithmetic<T>::value) {
            std::ostringstream o;
            o << +value_;
            return o.str();
        } else {
            return "?";
        }
    }

private:
    void check_range() {
        if constexpr (std::is_arithmetic<T>::value) {
            user_assert(!has_range_ || (!(value_ < min_) && !(max_ < value_)))
                << "GeneratorParam '" << name_ << "' is " << +value_ << " but must be in [" << +min_ << ", " << +max_
                << "]";
        }
    }
    T value_;
    T min_{}, max_{};
    bool has_range_ = false;
    std::map<std::string, T> names_;
};

// A LoopLevel chosen by whoever builds the generator (compute_at(level) in
// generate()). On the command line: root or inlined. Setting it changes
// every copy already handed out (LoopLevel::set), so it may be set after
// generate(), as upstream.
template <> class GeneratorParam<LoopLevel> : public Internal::GeneratorParamBase {
public:
    GeneratorParam(const std::string &name, const LoopLevel &value) : GeneratorParamBase(name), value_(value) {}

    const LoopLevel &value() const { return value_; }
    operator LoopLevel() const { return value_; }
    GeneratorParam &operator=(const LoopLevel &v) {
        set(v);
        return *this;
    }
    void set(const LoopLevel &v) {
        value_.set(v); // the copies generate() already used
        value_ = v;    // and the level itself, from now on
    }
    void set_from_string(const std::string &s) override;
    std::string to_string() const override;
    bool is_loop_level() const override { return true; }
    void set_loop_level(const LoopLevel &v) override { set(v); }
    Internal::GeneratorParamKind kind() const override { return Internal::GeneratorParamKind::LoopLevel; }

private:
    LoopLevel value_;
};

} // namespace Halide

#endif
