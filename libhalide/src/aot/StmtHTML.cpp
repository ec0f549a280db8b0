// See StmtHTML.h. A plain rendering: the text, escaped, in a <pre>, with
// each line's leading keyword in a span and every "{ ... }" block in a
// <details> element so it can be folded.
#include "aot/StmtHTML.h"

#include <sstream>

namespace Halide {
namespace Internal {

namespace {

std::string escaped(const std::string &s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

const char *const kKeywords[] = {"produce", "consume",  "for",  "parallel", "vectorized", "unrolled", "let",
                                 "assert",  "allocate", "free", "if",       "else",       "realize",  "prefetch"};

// One line: indentation, a highlighted keyword if it starts with one, the rest.
std::string line_html(const std::string &line) {
    size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos) {
        return escaped(line);
    }
    std::string indent = line.substr(0, start), rest = line.substr(start);
    for (const char *kw : kKeywords) {
        std::string k = kw;
        if (rest.compare(0, k.size(), k) == 0 &&
            (rest.size() == k.size() || rest[k.size()] == ' ' || rest[k.size()] == '(' || rest[k.size()] == '<')) {
            return indent + "<span class='kw'>" + k + "</span>" + escaped(rest.substr(k.size()));
        }
    }
    if (rest.compare(0, 2, "//") == 0) {
        return indent + "<span class='cmt'>" + escaped(rest) + "</span>";
    }
    return escaped(line);
}

} // namespace

std::string stmt_html(const std::string &name, const std::string &stmt) {
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n<title>Halide Module: " << escaped(name)
        << "</title>\n<style>\n"
        << "body { font-family: monospace; }\n"
        << "pre, details, summary { margin: 0; white-space: pre; }\n"
        << "details > div { margin-left: 1em; }\n"
        << "summary { cursor: pointer; }\n"
        << ".kw { color: #a020f0; font-weight: bold; }\n"
        << ".cmt { color: #808080; }\n"
        << "</style>\n</head>\n<body>\n<h1>Halide Module: " << escaped(name) << "</h1>\n<div class='stmt'>\n";
    std::istringstream lines(stmt);
    std::string line;
    int open = 0;
    while (std::getline(lines, line)) {
        size_t last = line.find_last_not_of(' ');
        bool opens = last != std::string::npos && line[last] == '{';
        size_t first = line.find_first_not_of(' ');
        bool closes = first != std::string::npos && line[first] == '}' && open > 0;
        if (closes) {
            out << "</div></details>\n";
            open--;
            // "} else {": the closing brace ends one block, the rest may open another.
            if (!opens) {
                out << "<pre>" << line_html(line) << "</pre>\n";
                continue;
            }
        }
        if (opens) {
            out << "<details open><summary>" << line_html(line) << "</summary><div>\n";
            open++;
        } else {
            out << "<pre>" << line_html(line) << "</pre>\n";
        }
    }
    for (; open > 0; open--) {
        out << "</div></details>\n";
    }
    out << "</div>\n</body>\n</html>\n";
    return out.str();
}

} // namespace Internal
} // namespace Halide
