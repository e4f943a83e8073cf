#include "harness/schema/schema_check.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "harness/schema/annotations.h"
#include "harness/schema/reachability.h"
#include "proto/compat_options.pb.h"
#include "proto/schema.h"
#include "support/file_io.h"
#include "support/proto_util.h"
#include "support/status_macros.h"

namespace aot {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;
using google::protobuf::EnumDescriptor;
using google::protobuf::EnumValueDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;
using google::protobuf::FileDescriptorSet;

// One version of the schema, built into its own pool.
struct Version {
  std::string name;
  std::unique_ptr<DescriptorPool> pool;
  ReachableSet reach;
  bool defines_annotations = false;  // has this project's (aot.compat)
  std::map<std::string, const Descriptor*> messages;
  std::map<std::string, const EnumDescriptor*> enums;

  const Descriptor* Message(const std::string& name) const {
    auto it = messages.find(name);
    return it == messages.end() ? nullptr : it->second;
  }
  const EnumDescriptor* Enum(const std::string& name) const {
    auto it = enums.find(name);
    return it == enums.end() ? nullptr : it->second;
  }
};

bool IsWellKnownFile(const std::string& name) { return absl::StartsWith(name, "google/protobuf/"); }

void CollectEnum(const EnumDescriptor* e, Version& v) { v.enums[e->full_name()] = e; }

void CollectMessage(const Descriptor* d, Version& v) {
  if (d->options().map_entry()) return;  // judged through the map field
  v.messages[d->full_name()] = d;
  for (int i = 0; i < d->nested_type_count(); ++i) CollectMessage(d->nested_type(i), v);
  for (int i = 0; i < d->enum_type_count(); ++i) CollectEnum(d->enum_type(i), v);
}

absl::StatusOr<Version> BuildVersion(const SchemaVersion& in, const SchemaPolicy& policy) {
  Version v;
  v.name = in.name;
  AOT_ASSIGN_OR_RETURN(auto pool, BuildDescriptorPool(in.set, in.name));
  v.pool = std::move(pool);
  std::vector<std::string> roots = policy.roots;
  if (roots.empty()) roots.push_back(kContractRoot);
  v.reach = ComputeReachable(*v.pool, roots, policy.bytes_carried);
  v.defines_annotations = v.pool->FindExtensionByName("aot.compat") != nullptr;
  for (const auto& file_proto : in.set.file()) {
    if (IsWellKnownFile(file_proto.name())) continue;
    const FileDescriptor* file = v.pool->FindFileByName(file_proto.name());
    if (file == nullptr) continue;
    for (int i = 0; i < file->message_type_count(); ++i) CollectMessage(file->message_type(i), v);
    for (int i = 0; i < file->enum_type_count(); ++i) CollectEnum(file->enum_type(i), v);
  }
  return v;
}

std::string Describe(const Annotation& a) {
  if (!a.present) return "no (aot.compat) annotation";
  const CompatAnnotation& c = a.value;
  std::string out = absl::StrCat(
      "ignorable_by_older_runtimes=", c.ignorable_by_older_runtimes() ? "true" : "false",
      ", runtime_support_since=",
      c.runtime_support_since().empty() ? "v1" : c.runtime_support_since(),
      ", emission_flag=", c.emission_flag().empty() ? "none" : c.emission_flag());
  if (!c.emission_stopped().empty())
    absl::StrAppend(&out, ", emission_stopped=", c.emission_stopped());
  return out;
}

// What in an annotation loosened from `before` to `after` (empty: nothing).
std::vector<std::string> Loosenings(const Annotation& before, const Annotation& after,
                                    bool added_after_first) {
  std::vector<std::string> out;
  const CompatAnnotation& b = before.value;
  const CompatAnnotation& a = after.value;
  if (!b.ignorable_by_older_runtimes() && a.ignorable_by_older_runtimes()) {
    out.push_back("ignorable_by_older_runtimes changed false -> true");
  }
  if (!a.runtime_support_since().empty() &&
      (b.runtime_support_since().empty() ||
       a.runtime_support_since() > b.runtime_support_since())) {
    out.push_back(absl::StrCat("runtime_support_since moved later (",
                               b.runtime_support_since().empty() ? "v1" : b.runtime_support_since(),
                               " -> ", a.runtime_support_since(), ")"));
  }
  if (added_after_first && !b.emission_flag().empty() && a.emission_flag() != b.emission_flag()) {
    out.push_back(absl::StrCat("emission_flag '", b.emission_flag(), "' ",
                               a.emission_flag().empty()
                                   ? std::string("removed")
                                   : absl::StrCat("renamed to '", a.emission_flag(), "'"),
                               " on an element added after the first snapshot"));
  }
  if (!b.emission_stopped().empty() && !a.emission_stopped().empty() &&
      a.emission_stopped() < b.emission_stopped()) {
    out.push_back(absl::StrCat("emission_stopped moved earlier (", b.emission_stopped(), " -> ",
                               a.emission_stopped(), ")"));
  }
  return out;
}

std::string TypeName(const FieldDescriptor* f) {
  if (f->is_map()) {
    return absl::StrCat("map<", TypeName(f->message_type()->map_key()), ", ",
                        TypeName(f->message_type()->map_value()), ">");
  }
  if (f->message_type() != nullptr) return f->message_type()->full_name();
  if (f->enum_type() != nullptr) return f->enum_type()->full_name();
  return f->type_name();
}

std::string OneofName(const FieldDescriptor* f) {
  const auto* oneof = f->real_containing_oneof();
  return oneof == nullptr ? "" : oneof->name();
}

// Structural type identity (see schema_check.h): types with the same full
// name are the same (their own changes are judged under that name); others
// when they are identical on the wire and in JSON. `assumed` breaks cycles
// of recursive messages (a pair being compared is taken as equal).
class SameStructure {
 public:
  bool Fields(const FieldDescriptor* a, const FieldDescriptor* b) {
    if (a->is_map() != b->is_map()) return false;
    if (a->is_map()) {
      return Fields(a->message_type()->map_key(), b->message_type()->map_key()) &&
             Fields(a->message_type()->map_value(), b->message_type()->map_value());
    }
    if (a->type() != b->type()) return false;
    if (a->enum_type() != nullptr) return Enums(a->enum_type(), b->enum_type());
    if (a->message_type() != nullptr) return Messages(a->message_type(), b->message_type());
    return true;
  }

 private:
  static bool Enums(const EnumDescriptor* a, const EnumDescriptor* b) {
    if (a->full_name() == b->full_name()) return true;
    if (a->value_count() != b->value_count()) return false;
    for (int i = 0; i < a->value_count(); ++i) {
      const EnumValueDescriptor* v = b->FindValueByName(a->value(i)->name());
      if (v == nullptr || v->number() != a->value(i)->number()) return false;
    }
    return true;
  }

  bool Messages(const Descriptor* a, const Descriptor* b) {
    if (a->full_name() == b->full_name()) return true;
    if (!assumed_.insert({a, b}).second) return true;
    if (a->field_count() != b->field_count()) return false;
    for (int i = 0; i < a->field_count(); ++i) {
      const FieldDescriptor* fa = a->field(i);
      const FieldDescriptor* fb = b->FindFieldByNumber(fa->number());
      if (fb == nullptr || fb->name() != fa->name() || fb->json_name() != fa->json_name() ||
          fb->is_repeated() != fa->is_repeated() || OneofName(fb) != OneofName(fa) ||
          !Fields(fa, fb)) {
        return false;
      }
    }
    return true;
  }

  std::set<std::pair<const Descriptor*, const Descriptor*>> assumed_;
};

bool SameType(const FieldDescriptor* a, const FieldDescriptor* b) {
  return SameStructure().Fields(a, b);
}

std::string Cardinality(const FieldDescriptor* f) {
  return f->is_repeated() ? "repeated" : "singular";
}

std::string FieldSummary(const FieldDescriptor* f) {
  std::string oneof = OneofName(f);
  return absl::StrCat(f->full_name(), " (number ", f->number(), ", ",
                      f->is_repeated() ? "repeated " : "", TypeName(f),
                      oneof.empty() ? "" : absl::StrCat(", in oneof ", oneof), ")");
}

bool SameMeaning(const FieldDescriptor* a, const FieldDescriptor* b) {
  return a->name() == b->name() && a->number() == b->number() && SameType(a, b) &&
         a->is_repeated() == b->is_repeated() && OneofName(a) == OneofName(b);
}

// A message's or enum's reserved range [start, end) is still reserved in
// `covered`.
bool RangeCovered(int start, int end, const std::function<bool(int)>& reserved,
                  const std::vector<std::pair<int, int>>& head_ranges) {
  for (const auto& [s, e] : head_ranges) {
    if (s <= start && e >= end) return true;
  }
  if (int64_t{end} - start > 100000) return false;
  for (int n = start; n < end; ++n) {
    if (!reserved(n)) return false;
  }
  return true;
}

class Checker {
 public:
  Checker(const std::vector<const Version*>& history, const Version& head,
          const SchemaPolicy& policy, bool annotations)
      : history_(history),
        base_(*history.back()),
        first_(*history.front()),
        head_(head),
        policy_(policy),
        annotations_(annotations) {}

  SchemaCheckReport Run() {
    for (const std::string& root : base_.reach.roots) {
      if (head_.pool->FindMessageTypeByName(root) != nullptr) continue;
      const Descriptor* b = base_.pool->FindMessageTypeByName(root);
      Violation(true, "ROOT_REMOVED", b->file()->name(), root,
                absl::StrCat("root message ", root,
                             " is gone: nothing of the contract is left "
                             "to check (renamed, or a wrong --root?)"));
    }
    std::set<std::string> names;
    for (const auto& [n, d] : base_.messages) names.insert(n);
    for (const auto& [n, d] : head_.messages) names.insert(n);
    for (const std::string& n : names) CheckMessage(n);
    std::set<std::string> enum_names;
    for (const auto& [n, e] : base_.enums) enum_names.insert(n);
    for (const auto& [n, e] : head_.enums) enum_names.insert(n);
    for (const std::string& n : enum_names) CheckEnum(n);
    for (auto* list :
         {&report_.violations, &report_.warnings, &report_.additions, &report_.notes}) {
      for (SchemaFinding& f : *list) Locate(f);
    }
    return std::move(report_);
  }

 private:
  void Violation(bool gated, std::string rule, std::string file, std::string element,
                 std::string message) {
    std::vector<SchemaFinding>* list = &report_.notes;
    if (gated) {
      switch (policy_.SeverityOf(rule)) {
        case RuleSeverity::kError:
          list = &report_.violations;
          break;
        case RuleSeverity::kWarning:
          list = &report_.warnings;
          break;
        case RuleSeverity::kIgnore:
          return;
      }
    }
    list->push_back({std::move(rule), std::move(file), std::move(element), std::move(message)});
  }
  void Note(std::string rule, std::string file, std::string element, std::string message) {
    report_.notes.push_back(
        {std::move(rule), std::move(file), std::move(element), std::move(message)});
  }

  // " added: <annotation>" when the annotation rules apply, else " added".
  template <typename A>
  std::string Added(const A& annotation) const {
    return annotations_ ? absl::StrCat(" added: ", Describe(annotation)) : " added";
  }

  // The declaration of `f.element` in the head (or of the nearest enclosing
  // element that is still there), when the set carries source info.
  void Locate(SchemaFinding& f) const {
    const DescriptorPool& pool = *head_.pool;
    std::string name = f.element;
    while (!name.empty()) {
      google::protobuf::SourceLocation loc;
      bool found = false, located = false;
      if (const FieldDescriptor* d = pool.FindFieldByName(name)) {
        found = true, located = d->GetSourceLocation(&loc);
      } else if (const Descriptor* d = pool.FindMessageTypeByName(name)) {
        found = true, located = d->GetSourceLocation(&loc);
      } else if (const EnumDescriptor* d = pool.FindEnumTypeByName(name)) {
        found = true, located = d->GetSourceLocation(&loc);
      } else if (size_t dot = name.rfind('.'); dot != std::string::npos) {
        const EnumDescriptor* e = pool.FindEnumTypeByName(name.substr(0, dot));
        const EnumValueDescriptor* v =
            e == nullptr ? nullptr : e->FindValueByName(name.substr(dot + 1));
        if (v != nullptr) found = true, located = v->GetSourceLocation(&loc);
      }
      if (found) {
        if (located) f.line = loc.start_line + 1, f.column = loc.start_column + 1;
        return;
      }
      size_t dot = name.rfind('.');
      name = dot == std::string::npos ? "" : name.substr(0, dot);
    }
  }
  void Addition(bool gated, std::string rule, std::string file, std::string element,
                std::string message) {
    (gated ? report_.additions : report_.notes)
        .push_back({std::move(rule), std::move(file), std::move(element), std::move(message)});
  }

  void CheckMessage(const std::string& name) {
    const Descriptor* b = base_.Message(name);
    const Descriptor* h = head_.Message(name);
    bool gated = base_.reach.HasMessage(name) || head_.reach.HasMessage(name);
    if (h == nullptr) {
      Note("MESSAGE_REMOVED", b->file()->name(), name,
           absl::StrCat("message ", name, " removed (", b->field_count(),
                        " fields; judged through the fields that used it)"));
      return;
    }
    const std::string& file = h->file()->name();
    if (b == nullptr) {
      Addition(gated, "MESSAGE_ADDED", file, name, absl::StrCat("message ", name, " added"));
    }
    if (b != nullptr) {
      bool names_matter = base_.reach.NameSensitive(name) || head_.reach.NameSensitive(name);
      for (int i = 0; i < b->field_count(); ++i) {
        CheckBaseField(gated, names_matter, b->field(i), h);
      }
      CheckReservedKept(gated, b, h);
    }
    for (int i = 0; i < h->field_count(); ++i) CheckHeadField(gated, h->field(i), b);
  }

  void CheckBaseField(bool gated, bool names_matter, const FieldDescriptor* bf,
                      const Descriptor* h) {
    const std::string& file = h->file()->name();
    const FieldDescriptor* by_name = h->FindFieldByName(bf->name());
    const FieldDescriptor* by_number = h->FindFieldByNumber(bf->number());
    if (by_name != nullptr && by_name->number() != bf->number()) {
      Violation(gated, "FIELD_NUMBER_CHANGED", file, bf->full_name(),
                absl::StrCat(bf->full_name(), " changed number ", bf->number(), " -> ",
                             by_name->number()));
      return;
    }
    if (by_number == nullptr) {
      if (!h->IsReservedNumber(bf->number())) {
        Violation(gated, "FIELD_REMOVED_NOT_RESERVED", file, bf->full_name(),
                  absl::StrCat(bf->full_name(), " (number ", bf->number(),
                               ") removed without reserving number ", bf->number()));
      }
      if (!h->IsReservedName(bf->name())) {
        Violation(gated, "FIELD_NAME_REMOVED_NOT_RESERVED", file, bf->full_name(),
                  absl::StrCat(bf->full_name(), " (number ", bf->number(),
                               ") removed without reserving name \"", bf->name(), "\""));
      }
      return;
    }
    // Same number: a rename frees the old name.
    if (by_name == nullptr && !h->IsReservedName(bf->name())) {
      Violation(gated, "FIELD_NAME_REMOVED_NOT_RESERVED", file, bf->full_name(),
                absl::StrCat(bf->full_name(), " (number ", bf->number(), ") renamed to ",
                             by_number->name(), " without reserving name \"", bf->name(), "\""));
    }
    const FieldDescriptor* hf = by_number;
    if (names_matter && (hf->name() != bf->name() || hf->json_name() != bf->json_name())) {
      Violation(gated, "FIELD_NAME_CHANGED", file, bf->full_name(),
                absl::StrCat(bf->full_name(), " (number ", bf->number(), ") is now ",
                             hf->name() == bf->name() ? "JSON name \"" : "\"",
                             hf->name() == bf->name() ? hf->json_name() : hf->name(),
                             "\": JSON and text-format data written before no longer parse"));
    }
    if (!SameType(bf, hf)) {
      Violation(gated, "FIELD_TYPE_CHANGED", file, bf->full_name(),
                absl::StrCat(bf->full_name(), " (number ", bf->number(), ") changed type ",
                             TypeName(bf), " -> ", TypeName(hf)));
    } else if (TypeName(hf) != TypeName(bf)) {
      Note("TYPE_MOVED", file, bf->full_name(),
           absl::StrCat(bf->full_name(), " (number ", bf->number(), ") now has type ", TypeName(hf),
                        ", structurally identical to ", TypeName(bf),
                        " (same on the wire and in JSON)"));
    }
    if (hf->is_repeated() != bf->is_repeated()) {
      Violation(gated, "FIELD_CARDINALITY_CHANGED", file, bf->full_name(),
                absl::StrCat(bf->full_name(), " (number ", bf->number(), ") changed ",
                             Cardinality(bf), " -> ", Cardinality(hf)));
    }
    if (OneofName(hf) != OneofName(bf)) {
      auto where = [](const std::string& o) {
        return o.empty() ? std::string("no oneof") : absl::StrCat("oneof ", o);
      };
      Violation(gated, "FIELD_ONEOF_CHANGED", file, bf->full_name(),
                absl::StrCat(bf->full_name(), " (number ", bf->number(), ") moved from ",
                             where(OneofName(bf)), " to ", where(OneofName(hf))));
    }
    if (annotations_ && hf->name() == bf->name()) {
      bool added_after_first = !InFirst(hf);
      for (const std::string& what :
           Loosenings(FieldAnnotation(bf), FieldAnnotation(hf), added_after_first)) {
        Violation(gated, "ANNOTATION_LOOSENED", file, hf->full_name(),
                  absl::StrCat(hf->full_name(), ": ", what));
      }
    }
  }

  bool InFirst(const FieldDescriptor* hf) const {
    const Descriptor* d = first_.Message(hf->containing_type()->full_name());
    if (d == nullptr) return false;
    const FieldDescriptor* f = d->FindFieldByNumber(hf->number());
    return f != nullptr && f->name() == hf->name();
  }

  void CheckReservedKept(bool gated, const Descriptor* b, const Descriptor* h) {
    const std::string& file = h->file()->name();
    std::vector<std::pair<int, int>> head_ranges;
    for (int i = 0; i < h->reserved_range_count(); ++i) {
      head_ranges.emplace_back(h->reserved_range(i)->start, h->reserved_range(i)->end);
    }
    for (int i = 0; i < b->reserved_range_count(); ++i) {
      int start = b->reserved_range(i)->start, end = b->reserved_range(i)->end;
      if (!RangeCovered(
              start, end, [h](int n) { return h->IsReservedNumber(n); }, head_ranges)) {
        Violation(gated, "RESERVED_REMOVED", file, h->full_name(),
                  absl::StrCat(h->full_name(), ": reserved number",
                               end - start > 1 ? absl::StrCat("s ", start, " to ", end - 1)
                                               : absl::StrCat(" ", start),
                               " no longer reserved"));
      }
    }
    for (int i = 0; i < b->reserved_name_count(); ++i) {
      if (!h->IsReservedName(b->reserved_name(i))) {
        Violation(gated, "RESERVED_REMOVED", file, h->full_name(),
                  absl::StrCat(h->full_name(), ": reserved name \"", b->reserved_name(i),
                               "\" no longer reserved"));
      }
    }
  }

  void CheckHeadField(bool gated, const FieldDescriptor* hf, const Descriptor* b) {
    const std::string& file = hf->file()->name();
    bool is_new = b == nullptr || (b->FindFieldByNumber(hf->number()) == nullptr &&
                                   b->FindFieldByName(hf->name()) == nullptr);
    const std::string message_name = hf->containing_type()->full_name();
    if (is_new) {
      // Reserved in any snapshot.
      bool reserved_reported = false;
      for (const Version* v : history_) {
        const Descriptor* d = v->Message(message_name);
        if (d == nullptr) continue;
        if (d->IsReservedNumber(hf->number()) || d->IsReservedName(hf->name())) {
          Violation(gated, "RESERVED_REUSED", file, hf->full_name(),
                    absl::StrCat(FieldSummary(hf), " uses ",
                                 d->IsReservedNumber(hf->number())
                                     ? absl::StrCat("number ", hf->number())
                                     : absl::StrCat("name \"", hf->name(), "\""),
                                 ", reserved in snapshot ", v->name));
          reserved_reported = true;
          break;
        }
      }
      // Another meaning in an older snapshot (the base is judged above).
      if (!reserved_reported) {
        for (size_t i = 0; i + 1 < history_.size(); ++i) {
          const Descriptor* d = history_[i]->Message(message_name);
          if (d == nullptr) continue;
          const FieldDescriptor* old = d->FindFieldByNumber(hf->number());
          if (old == nullptr) old = d->FindFieldByName(hf->name());
          if (old != nullptr && !SameMeaning(old, hf)) {
            Violation(gated, "HISTORY_REUSE", file, hf->full_name(),
                      absl::StrCat(FieldSummary(hf), " reuses what was ", FieldSummary(old),
                                   " in snapshot ", history_[i]->name,
                                   " (old artifacts may still carry it)"));
            break;
          }
        }
      }
      bool oneof_case = hf->real_containing_oneof() != nullptr;
      Addition(gated, oneof_case ? "ONEOF_CASE_ADDED" : "FIELD_ADDED", file, hf->full_name(),
               absl::StrCat(oneof_case ? "oneof case " : "field ", FieldSummary(hf),
                            Added(FieldAnnotation(hf))));
    }
    if (annotations_ && is_new && gated && !InFirst(hf) && !FieldAnnotation(hf).present) {
      Violation(gated, "MISSING_ANNOTATION", file, hf->full_name(),
                absl::StrCat(FieldSummary(hf),
                             " was added after the first snapshot and has no (aot.compat) "
                             "annotation; say whether older runtimes may ignore it"));
    }
  }

  void CheckEnum(const std::string& name) {
    const EnumDescriptor* b = base_.Enum(name);
    const EnumDescriptor* h = head_.Enum(name);
    bool gated = base_.reach.HasEnum(name) || head_.reach.HasEnum(name);
    if (h == nullptr) {
      Note("ENUM_REMOVED", b->file()->name(), name, absl::StrCat("enum ", name, " removed"));
      return;
    }
    bool names_matter = base_.reach.NameSensitive(name) || head_.reach.NameSensitive(name);
    const std::string& file = h->file()->name();
    if (b == nullptr) {
      Addition(gated, "ENUM_ADDED", file, name, absl::StrCat("enum ", name, " added"));
    } else {
      for (int i = 0; i < b->value_count(); ++i) {
        const EnumValueDescriptor* bv = b->value(i);
        const EnumValueDescriptor* by_name = h->FindValueByName(bv->name());
        const EnumValueDescriptor* by_number = h->FindValueByNumber(bv->number());
        std::string element = absl::StrCat(name, ".", bv->name());
        if (by_name != nullptr && by_name->number() != bv->number()) {
          Violation(
              gated, "ENUM_VALUE_NUMBER_CHANGED", file, element,
              absl::StrCat(element, " changed number ", bv->number(), " -> ", by_name->number()));
          continue;
        }
        if (by_number == nullptr && !h->IsReservedNumber(bv->number())) {
          Violation(gated, "ENUM_VALUE_REMOVED_NOT_RESERVED", file, element,
                    absl::StrCat(element, " (number ", bv->number(),
                                 ") removed without reserving number ", bv->number()));
        }
        if (by_name == nullptr && !h->IsReservedName(bv->name())) {
          Violation(gated, "ENUM_VALUE_NAME_REMOVED_NOT_RESERVED", file, element,
                    absl::StrCat(element, " (number ", bv->number(), ") ",
                                 by_number == nullptr ? "removed" : "renamed",
                                 " without reserving name \"", bv->name(), "\""));
        }
        if (names_matter && by_name == nullptr && by_number != nullptr) {
          Violation(gated, "ENUM_VALUE_NAME_CHANGED", file, element,
                    absl::StrCat(element, " (number ", bv->number(), ") is now ", name, ".",
                                 by_number->name(), ": JSON data written before names it \"",
                                 bv->name(), "\""));
        }
        if (annotations_ && by_name != nullptr) {
          for (const std::string& what : Loosenings(ValueAnnotation(bv), ValueAnnotation(by_name),
                                                    !ValueInFirst(name, by_name))) {
            Violation(gated, "ANNOTATION_LOOSENED", file, element,
                      absl::StrCat(element, ": ", what));
          }
        }
      }
      std::vector<std::pair<int, int>> head_ranges;  // [start, end)
      for (int i = 0; i < h->reserved_range_count(); ++i) {
        head_ranges.emplace_back(h->reserved_range(i)->start, h->reserved_range(i)->end + 1);
      }
      for (int i = 0; i < b->reserved_range_count(); ++i) {
        int start = b->reserved_range(i)->start, end = b->reserved_range(i)->end;
        if (!RangeCovered(
                start, end + 1, [h](int n) { return h->IsReservedNumber(n); }, head_ranges)) {
          Violation(gated, "RESERVED_REMOVED", file, name,
                    absl::StrCat(name, ": reserved number",
                                 end > start ? absl::StrCat("s ", start, " to ", end)
                                             : absl::StrCat(" ", start),
                                 " no longer reserved"));
        }
      }
      for (int i = 0; i < b->reserved_name_count(); ++i) {
        if (!h->IsReservedName(b->reserved_name(i))) {
          Violation(gated, "RESERVED_REMOVED", file, name,
                    absl::StrCat(name, ": reserved name \"", b->reserved_name(i),
                                 "\" no longer reserved"));
        }
      }
    }
    for (int i = 0; i < h->value_count(); ++i) {
      const EnumValueDescriptor* hv = h->value(i);
      bool is_new = b == nullptr || (b->FindValueByNumber(hv->number()) == nullptr &&
                                     b->FindValueByName(hv->name()) == nullptr);
      if (!is_new) continue;
      std::string element = absl::StrCat(name, ".", hv->name());
      bool reported = false;
      for (const Version* v : history_) {
        const EnumDescriptor* d = v->Enum(name);
        if (d == nullptr) continue;
        if (d->IsReservedNumber(hv->number()) || d->IsReservedName(hv->name())) {
          Violation(gated, "RESERVED_REUSED", file, element,
                    absl::StrCat(element, " (number ", hv->number(),
                                 ") uses a number or name reserved in snapshot ", v->name));
          reported = true;
          break;
        }
      }
      for (size_t j = 0; !reported && j + 1 < history_.size(); ++j) {
        const EnumDescriptor* d = history_[j]->Enum(name);
        if (d == nullptr) continue;
        const EnumValueDescriptor* old = d->FindValueByNumber(hv->number());
        if (old == nullptr) old = d->FindValueByName(hv->name());
        if (old != nullptr && (old->name() != hv->name() || old->number() != hv->number())) {
          Violation(gated, "HISTORY_REUSE", file, element,
                    absl::StrCat(element, " (number ", hv->number(), ") reuses what was ", name,
                                 ".", old->name(), " (number ", old->number(), ") in snapshot ",
                                 history_[j]->name, " (old artifacts may still carry it)"));
          reported = true;
        }
      }
      Addition(gated, "ENUM_VALUE_ADDED", file, element,
               absl::StrCat("enum value ", element, " (number ", hv->number(), ")",
                            Added(ValueAnnotation(hv))));
    }
  }

  bool ValueInFirst(const std::string& enum_name, const EnumValueDescriptor* v) const {
    const EnumDescriptor* d = first_.Enum(enum_name);
    if (d == nullptr) return false;
    const EnumValueDescriptor* f = d->FindValueByName(v->name());
    return f != nullptr && f->number() == v->number();
  }

  const std::vector<const Version*>& history_;
  const Version& base_;
  const Version& first_;
  const Version& head_;
  const SchemaPolicy& policy_;
  const bool annotations_;
  SchemaCheckReport report_;
};

bool AnnotationsApply(const SchemaPolicy& policy, const Version& head) {
  switch (policy.annotations) {
    case SchemaPolicy::Annotations::kOn:
      return true;
    case SchemaPolicy::Annotations::kOff:
      return false;
    case SchemaPolicy::Annotations::kAuto:
      break;
  }
  return head.defines_annotations;
}

// Builds every version and checks the policy against them as a whole: some
// version has a root (else the root is misspelt), and every bytes-carried
// entry names a string/bytes field and a message that some version defines.
absl::StatusOr<std::vector<Version>> BuildVersions(const std::vector<SchemaVersion>& in,
                                                   const SchemaPolicy& policy) {
  std::vector<Version> out;
  for (const SchemaVersion& v : in) {
    AOT_ASSIGN_OR_RETURN(auto built, BuildVersion(v, policy));
    out.push_back(std::move(built));
  }
  bool any_root = false;
  for (const Version& v : out) any_root = any_root || !v.reach.roots.empty();
  if (!any_root) {
    std::vector<std::string> roots = policy.roots;
    if (roots.empty()) roots.push_back(kContractRoot);
    return absl::InvalidArgumentError(
        absl::StrCat(out.back().name, ": the schema has no message '", absl::StrJoin(roots, "', '"),
                     "' (in any version); name the root with --root=FULL.MESSAGE.NAME"));
  }
  for (const SchemaPolicy::BytesCarried& c : policy.bytes_carried) {
    bool field_found = false, message_found = false;
    for (const Version& v : out) {
      if (const FieldDescriptor* f = v.pool->FindFieldByName(c.field)) {
        if (f->type() != FieldDescriptor::TYPE_BYTES && f->type() != FieldDescriptor::TYPE_STRING) {
          return absl::InvalidArgumentError(
              absl::StrCat("policy: bytes_carried field ", c.field, " is ", f->type_name(), " in ",
                           v.name, "; a carried message needs a string or bytes field"));
        }
        field_found = true;
      }
      message_found = message_found || v.pool->FindMessageTypeByName(c.message) != nullptr;
    }
    if (!field_found || !message_found) {
      return absl::InvalidArgumentError(
          absl::StrCat("policy: bytes_carried names ", !field_found ? "field " : "message ",
                       !field_found ? c.field : c.message, ", which no schema version defines"));
    }
  }
  return out;
}

nlohmann::ordered_json FindingsJson(const std::vector<SchemaFinding>& findings) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const SchemaFinding& f : findings) {
    nlohmann::ordered_json j;
    j["rule"] = f.rule;
    j["file"] = f.file;
    j["element"] = f.element;
    j["message"] = f.message;
    if (!f.snapshot.empty()) j["snapshot"] = f.snapshot;
    if (f.line > 0) {
      j["line"] = f.line;
      j["column"] = f.column;
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

std::string SchemaFinding::ToString() const {
  return absl::StrCat("[", rule, "] ", file.empty() ? "" : absl::StrCat(file, ": "), message,
                      snapshot.empty() ? "" : absl::StrCat(" (at ", snapshot, ")"));
}

std::string SchemaFinding::ToBufLine() const {
  return absl::StrCat(file, ":", line > 0 ? line : 1, ":", line > 0 ? column : 1, ":", message,
                      snapshot.empty() ? "" : absl::StrCat(" (at ", snapshot, ")"), " (", rule,
                      ")");
}

bool SchemaCheckReport::HasViolation(const std::string& rule) const {
  return std::any_of(violations.begin(), violations.end(),
                     [&](const SchemaFinding& f) { return f.rule == rule; });
}

nlohmann::ordered_json SchemaCheckReport::ToJson() const {
  nlohmann::ordered_json out;
  out["violations"] = FindingsJson(violations);
  out["warnings"] = FindingsJson(warnings);
  out["additions"] = FindingsJson(additions);
  out["notes"] = FindingsJson(notes);
  return out;
}

std::string SchemaCheckReport::ToText() const {
  std::string out;
  for (const SchemaFinding& f : violations) absl::StrAppend(&out, f.ToString(), "\n");
  for (const SchemaFinding& f : warnings) absl::StrAppend(&out, "warning: ", f.ToString(), "\n");
  for (const SchemaFinding& f : additions) absl::StrAppend(&out, "addition: ", f.ToString(), "\n");
  for (const SchemaFinding& f : notes) absl::StrAppend(&out, "note: ", f.ToString(), "\n");
  absl::StrAppend(&out, "schema-check: ", violations.size(), " violation(s), ", warnings.size(),
                  " warning(s), ", additions.size(), " addition(s), ", notes.size(), " note(s)\n");
  return out;
}

std::string SchemaCheckReport::ToBufText() const {
  std::string out;
  for (const SchemaFinding& f : violations) absl::StrAppend(&out, f.ToBufLine(), "\n");
  for (const SchemaFinding& f : warnings) absl::StrAppend(&out, f.ToBufLine(), "\n");
  return out;
}

absl::StatusOr<SchemaCheckReport> CheckSchema(const std::vector<SchemaVersion>& history,
                                              const SchemaVersion& head,
                                              const SchemaPolicy& policy) {
  if (history.empty()) {
    return absl::InvalidArgumentError("schema-check needs at least one base snapshot");
  }
  std::vector<SchemaVersion> all = history;
  all.push_back(head);
  AOT_ASSIGN_OR_RETURN(std::vector<Version> versions, BuildVersions(all, policy));
  std::vector<const Version*> base;
  for (size_t i = 0; i + 1 < versions.size(); ++i) base.push_back(&versions[i]);
  const Version& built_head = versions.back();
  return Checker(base, built_head, policy, AnnotationsApply(policy, built_head)).Run();
}

absl::StatusOr<SchemaCheckReport> CheckSchemaHistory(const std::vector<SchemaVersion>& versions,
                                                     const SchemaPolicy& policy) {
  if (versions.empty()) return absl::InvalidArgumentError("schema-check: no schema version");
  AOT_ASSIGN_OR_RETURN(std::vector<Version> built, BuildVersions(versions, policy));
  SchemaCheckReport out;
  if (built.size() == 1) {
    out.notes.push_back({"HISTORY_TOO_SHORT", "", "",
                         absl::StrCat("only one schema version (", built[0].name,
                                      "): nothing to compare it with")});
    return out;
  }
  std::vector<const Version*> before = {&built[0]};
  for (size_t i = 1; i < built.size(); ++i) {
    SchemaCheckReport step =
        Checker(before, built[i], policy, AnnotationsApply(policy, built[i])).Run();
    for (auto [from, to] :
         {std::pair{&step.violations, &out.violations}, std::pair{&step.warnings, &out.warnings},
          std::pair{&step.additions, &out.additions}, std::pair{&step.notes, &out.notes}}) {
      for (SchemaFinding& f : *from) {
        f.snapshot = built[i].name;
        to->push_back(std::move(f));
      }
    }
    before.push_back(&built[i]);
  }
  return out;
}

absl::StatusOr<FileDescriptorSet> ReadDescriptorSet(const std::string& path) {
  AOT_ASSIGN_OR_RETURN(auto bytes, ReadFileToString(path));
  FileDescriptorSet set;
  if (!set.ParseFromString(bytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a FileDescriptorSet (binary protobuf parse failed)"));
  }
  if (set.file_size() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": descriptor set has no files"));
  }
  return set;
}

absl::StatusOr<std::vector<std::string>> ListSnapshots(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> out;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) {
    return absl::NotFoundError(absl::StrCat(dir, ": cannot list snapshots: ", ec.message()));
  }
  for (const auto& entry : it) {
    if (entry.path().extension() == ".binpb") out.push_back(entry.path().string());
  }
  if (out.empty()) return absl::NotFoundError(absl::StrCat(dir, ": no *.binpb snapshot"));
  std::sort(out.begin(), out.end());
  return out;
}

absl::Status WriteSnapshot(const std::string& path, const FileDescriptorSet& set) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    return absl::AlreadyExistsError(
        absl::StrCat(path, ": already exists; snapshots are never overwritten"));
  }
  std::string bytes = SerializeDeterministic(set);
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  return WriteFileAtomically(path, bytes);
}

absl::StatusOr<std::vector<SchemaVersion>> ReadSchemaHistory(
    const std::vector<std::string>& paths) {
  std::vector<SchemaVersion> history;
  for (const std::string& path : paths) {
    AOT_ASSIGN_OR_RETURN(auto set, ReadDescriptorSet(path));
    history.push_back({path, std::move(set)});
  }
  return history;
}

std::string DefaultSnapshotPath(const std::string& dir, const std::string& date,
                                const FileDescriptorSet& set) {
  return absl::StrCat(dir, "/", date, "-", DescriptorSetFingerprint(set).substr(0, 8), ".binpb");
}

}  // namespace aot
