// See Mangle.h. Only what entry points need of the Itanium C++ ABI:
// nested names, builtin types, pointers to (const) void and to
// halide_buffer_t, and substitutions of repeated components.
#include "aot/Mangle.h"

#include <cstdint>
#include <cstring>

#include "Halide/Error.h"

namespace Halide {
namespace Internal {

namespace {

class Mangler {
public:
    // _Z [N <namespaces> <name> E] <parameter types>, or "v" for none.
    std::string function(const std::vector<std::string> &namespaces, const std::string &name,
                         const std::vector<std::string> &param_keys) {
        std::string r = "_Z";
        if (!namespaces.empty()) {
            r += "N";
            std::string prefix;
            for (const std::string &ns : namespaces) {
                prefix += "::" + ns;
                r += source_name(ns);
                candidates_.push_back(prefix); // each enclosing namespace can be referred back to
            }
        }
        r += source_name(name);
        if (!namespaces.empty()) {
            r += "E";
        }
        if (param_keys.empty()) {
            return r + "v";
        }
        for (const std::string &k : param_keys) {
            r += type(k);
        }
        return r;
    }

private:
    static std::string source_name(const std::string &s) { return std::to_string(s.size()) + s; }

    // A type written as a key: "P" pointer, "K" const, "C:name" a class,
    // otherwise a builtin's one-letter code (not a substitution candidate).
    std::string type(const std::string &key) {
        bool builtin = key.size() == 1;
        if (builtin) {
            return key;
        }
        for (size_t i = 0; i < candidates_.size(); i++) {
            if (candidates_[i] == key) {
                return reference(i);
            }
        }
        std::string r;
        if (key[0] == 'P' || key[0] == 'K') {
            r = key.substr(0, 1) + type(key.substr(1));
        } else {
            internal_assert(key.compare(0, 2, "C:") == 0) << "bad type key " << key;
            r = source_name(key.substr(2));
        }
        candidates_.push_back(key);
        return r;
    }

    // S_, S0_, S1_, ..., S9_, SA_, ..., SZ_, S10_, ...
    static std::string reference(size_t i) {
        if (i == 0) {
            return "S_";
        }
        static const char *const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        std::string id;
        for (size_t n = i - 1;; n /= 36) {
            id.insert(id.begin(), digits[n % 36]);
            if (n < 36) {
                break;
            }
        }
        return "S" + id + "_";
    }

    std::vector<std::string> candidates_;
};

// The parameter's C type (as aot/CHeader.cpp writes it) as a type key.
std::string param_key(const LoweredArgument &a) {
    if (a.is_buffer()) {
        return "PC:halide_buffer_t";
    }
    const Type &t = a.type;
    if (t.is_handle()) {
        return "PKv"; // void const *
    }
    if (t.is_bool()) {
        return "b";
    }
    if (t.is_float() && t.bits() == 32) {
        return "f";
    }
    if (t.is_float() && t.bits() == 64) {
        return "d";
    }
    if (t.is_float() || t.code() == halide_type_bfloat) {
        return "t"; // 16-bit floats travel as uint16_t bits
    }
    // int8_t is signed char; int64_t is long on the LP64 targets we build for.
    static const char *const signed_codes[] = {"a", "s", "i", "l"};
    static const char *const unsigned_codes[] = {"h", "t", "j", "m"};
    int index = t.bits() == 8 ? 0 : t.bits() == 16 ? 1 : t.bits() == 32 ? 2 : 3;
    return t.is_int() ? signed_codes[index] : unsigned_codes[index];
}

template <typename T> T read(const std::string &b, size_t at) {
    internal_assert(at + sizeof(T) <= b.size()) << "truncated ELF object";
    T v;
    std::memcpy(&v, b.data() + at, sizeof(T));
    return v;
}

template <typename T> void write(std::string &b, size_t at, T v) {
    std::memcpy(&b[at], &v, sizeof(T));
}

} // namespace

std::map<std::string, std::string> mangled_entry_points(const LoweredFunc &f,
                                                        const std::vector<std::string> &namespaces) {
    std::vector<std::string> params;
    for (const LoweredArgument &a : f.args) {
        params.push_back(param_key(a));
    }
    return {
        {f.name, Mangler().function(namespaces, f.name, params)},
        {f.name + "_argv", Mangler().function(namespaces, f.name + "_argv", {"PPv"})},
        {f.name + "_metadata", Mangler().function(namespaces, f.name + "_metadata", {})},
    };
}

// The symbol names live in the string table the symbol table links to.
// New names are appended to a copy of that table placed at the end of the
// file (the old bytes stay, unused), and only the section header and the
// renamed symbols' name offsets change: relocations refer to symbols by
// index, so they follow.
std::string rename_symbols(const std::string &object, const std::map<std::string, std::string> &renames) {
    user_assert(object.size() >= 64 &&
                object.compare(0, 4,
                               "\x7f"
                               "ELF") == 0 &&
                object[4] == 2 && object[5] == 1)
        << "c_plus_plus_name_mangling: this compiler renames symbols in ELF objects (linux, android) only, not in "
           "the COFF (windows) or Mach-O (osx, ios) objects";
    std::string out = object;
    uint64_t shoff = read<uint64_t>(object, 0x28);
    uint16_t shentsize = read<uint16_t>(object, 0x3A), shnum = read<uint16_t>(object, 0x3C);
    auto header = [&](uint32_t i) { return (size_t)(shoff + (uint64_t)i * shentsize); };
    std::map<std::string, bool> found;
    for (uint32_t s = 0; s < shnum; s++) {
        if (read<uint32_t>(object, header(s) + 4) != 2) { // SHT_SYMTAB
            continue;
        }
        uint64_t sym_off = read<uint64_t>(object, header(s) + 24), sym_size = read<uint64_t>(object, header(s) + 32);
        uint32_t strtab = read<uint32_t>(object, header(s) + 40);
        uint64_t str_off = read<uint64_t>(object, header(strtab) + 24);
        uint64_t str_size = read<uint64_t>(object, header(strtab) + 32);
        std::string table = object.substr(str_off, str_size);
        for (uint64_t at = sym_off; at + 24 <= sym_off + sym_size; at += 24) {
            uint32_t name = read<uint32_t>(object, at);
            if (name >= table.size()) {
                continue;
            }
            auto it = renames.find(std::string(table.c_str() + name));
            if (it == renames.end()) {
                continue;
            }
            write<uint32_t>(out, at, (uint32_t)table.size());
            table += it->second + '\0';
            found[it->first] = true;
        }
        write<uint64_t>(out, header(strtab) + 24, (uint64_t)out.size());
        write<uint64_t>(out, header(strtab) + 32, (uint64_t)table.size());
        out += table;
    }
    for (const auto &kv : renames) {
        internal_assert(found.count(kv.first)) << "symbol " << kv.first << " is not in the object";
    }
    return out;
}

} // namespace Internal
} // namespace Halide
