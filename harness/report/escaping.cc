#include "harness/report/escaping.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace aot {

namespace {

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Decodes one UTF-8 sequence at `text[*pos]`, advancing `*pos`. Returns
// nullopt (having consumed one byte) for a malformed sequence: a bad lead
// byte, a missing continuation, an overlong form, a surrogate or a value
// above U+10FFFF.
std::optional<uint32_t> DecodeUtf8(absl::string_view text, size_t* pos) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(*pos);
  int length = 0;
  uint32_t cp = 0;
  uint32_t min = 0;
  if (lead < 0x80) {
    ++*pos;
    return lead;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    cp = lead & 0x1F;
    min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    cp = lead & 0x0F;
    min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    cp = lead & 0x07;
    min = 0x10000;
  } else {
    ++*pos;
    return std::nullopt;
  }
  if (*pos + length > text.size()) {
    ++*pos;
    return std::nullopt;
  }
  for (int i = 1; i < length; ++i) {
    unsigned char c = byte(*pos + i);
    if ((c & 0xC0) != 0x80) {
      ++*pos;
      return std::nullopt;
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++*pos;
    return std::nullopt;
  }
  *pos += length;
  return cp;
}

// The characters XML 1.0 allows (s. 2.2), which HTML is happy with too.
bool IsXmlChar(uint32_t cp) {
  return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
         (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

enum class Markup { kXmlText, kXmlAttribute, kHtml };

// Escapes `text` for `markup`: valid UTF-8 out (malformed sequences become
// U+FFFD), characters XML 1.0 forbids dropped, markup characters as
// entities. In XML attributes, tab / newline / carriage return are written
// as character references so attribute normalization keeps them.
std::string Escape(absl::string_view text, Markup markup) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    std::optional<uint32_t> cp = DecodeUtf8(text, &pos);
    if (!cp.has_value()) {
      AppendUtf8(0xFFFD, &out);
      continue;
    }
    if (!IsXmlChar(*cp)) continue;
    switch (*cp) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += markup == Markup::kHtml ? "&#39;" : "&apos;";
        break;
      case '\t':
        out += markup == Markup::kXmlAttribute ? "&#9;" : "\t";
        break;
      case '\n':
        out += markup == Markup::kXmlAttribute ? "&#10;" : "\n";
        break;
      case '\r':
        out += markup == Markup::kHtml ? "\r" : "&#13;";
        break;
      default:
        AppendUtf8(*cp, &out);
    }
  }
  return out;
}

}  // namespace

std::string EscapeXmlText(absl::string_view text) { return Escape(text, Markup::kXmlText); }

std::string EscapeXmlAttribute(absl::string_view text) {
  return Escape(text, Markup::kXmlAttribute);
}

std::string EscapeHtml(absl::string_view text) { return Escape(text, Markup::kHtml); }

std::string MarkupNumber(double value, int precision) {
  if (!std::isfinite(value)) value = 0;
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", precision, value);
  return buffer;
}

double FiniteNonNegative(double value) { return std::isfinite(value) && value > 0 ? value : 0; }

}  // namespace aot
