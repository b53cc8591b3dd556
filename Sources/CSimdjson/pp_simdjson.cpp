// The C interface of pp_simdjson.h, on simdjson's DOM parser.
//
// Why DOM and not on-demand: DOM parsing validates the whole line (every value, the structure and
// that nothing follows the root value); on-demand skips the values it is not asked for. Why one
// parse per line and not iterate_many: each line must stand alone, so a malformed line can never
// take a good one with it.

// simdjson reports errors as codes; its throwing accessors are compiled out. Anything else that
// could throw (allocation) is caught at the boundary.
#define SIMDJSON_EXCEPTIONS 0
#include <simdjson.h>

#include "pp_simdjson.h"

#include <cstring>
#include <memory>
#include <new>

using simdjson::dom::element;
using simdjson::dom::element_type;

static_assert(PP_FIELD_COUNT == 32, "one slot per EventField case");

namespace {

/// Capacity allocated up front: lines shorter than this never make the parser allocate.
constexpr size_t kInitialCapacity = 64 * 1024;
/// After a line longer than this, the buffers are given back at the next shorter line, so one huge
/// line does not pin ~10x its size for the rest of a run.
constexpr size_t kRetainedCapacity = 8 * 1024 * 1024;

const char *const kFieldKeys[PP_FIELD_COUNT] = {
    "event_id", "session_id", "ts",         "platform", "app",      "type",
    "seq",      "profile",    "app_version", "os_version", "device", "screen",
    "empty",    "distance",   "offset",     "reason",   "text",     "state",
    "trigger",  "indicator",  "progress",   "visible",  "key",      "ok",
    "error",    "message",    "install_id", "gesture_observed", "kind",       "count",    "stagger_ms", "cycle_ms",
};

template <size_t N> inline bool is(const char *key, const char (&literal)[N]) {
  return std::memcmp(key, literal, N - 1) == 0;
}

/// The slot of a top-level key, or -1 for an unknown key. One switch on the length, then at most
/// four fixed-size compares.
inline int top_level_field(const char *k, size_t n) noexcept {
  switch (n) {
  case 2:
    if (is(k, "ts")) return PP_FIELD_TS;
    if (is(k, "ok")) return PP_FIELD_OK;
    break;
  case 3:
    if (is(k, "app")) return PP_FIELD_APP;
    if (is(k, "seq")) return PP_FIELD_SEQ;
    if (is(k, "key")) return PP_FIELD_KEY;
    break;
  case 4:
    if (is(k, "type")) return PP_FIELD_TYPE;
    if (is(k, "text")) return PP_FIELD_TEXT;
    break;
  case 5:
    if (is(k, "empty")) return PP_FIELD_EMPTY;
    if (is(k, "state")) return PP_FIELD_STATE;
    if (is(k, "error")) return PP_FIELD_ERROR;
    break;
  case 6:
    if (is(k, "device")) return PP_FIELD_DEVICE;
    if (is(k, "screen")) return PP_FIELD_SCREEN;
    if (is(k, "offset")) return PP_FIELD_OFFSET;
    if (is(k, "reason")) return PP_FIELD_REASON;
    break;
  case 7:
    if (is(k, "profile")) return PP_FIELD_PROFILE;
    if (is(k, "trigger")) return PP_FIELD_TRIGGER;
    if (is(k, "visible")) return PP_FIELD_VISIBLE;
    if (is(k, "message")) return PP_FIELD_MESSAGE;
    break;
  case 8:
    if (is(k, "event_id")) return PP_FIELD_EVENT_ID;
    if (is(k, "platform")) return PP_FIELD_PLATFORM;
    if (is(k, "distance")) return PP_FIELD_DISTANCE;
    if (is(k, "progress")) return PP_FIELD_PROGRESS;
    break;
  case 9:
    if (is(k, "indicator")) return PP_FIELD_INDICATOR;
    break;
  case 10:
    if (is(k, "session_id")) return PP_FIELD_SESSION_ID;
    if (is(k, "os_version")) return PP_FIELD_OS_VERSION;
    if (is(k, "install_id")) return PP_FIELD_INSTALL_ID;
    break;
  case 11:
    if (is(k, "app_version")) return PP_FIELD_APP_VERSION;
    break;
  case 16:
    if (is(k, "gesture_observed")) return PP_FIELD_GESTURE_OBSERVED;
    break;
  default:
    break;
  }
  return -1;
}

/// The slot of a member of the `indicator` object, or -1.
inline int indicator_field(const char *k, size_t n) noexcept {
  switch (n) {
  case 4:
    if (is(k, "kind")) return PP_FIELD_INDICATOR_KIND;
    break;
  case 5:
    if (is(k, "count")) return PP_FIELD_INDICATOR_COUNT;
    break;
  case 8:
    if (is(k, "cycle_ms")) return PP_FIELD_INDICATOR_CYCLE_MS;
    break;
  case 10:
    if (is(k, "stagger_ms")) return PP_FIELD_INDICATOR_STAGGER_MS;
    break;
  default:
    break;
  }
  return -1;
}

inline pp_kind kind_of(element_type type) noexcept {
  switch (type) {
  case element_type::NULL_VALUE: return PP_KIND_NULL;
  case element_type::BOOL: return PP_KIND_BOOL;
  case element_type::INT64:
  case element_type::UINT64:
  case element_type::DOUBLE: return PP_KIND_NUMBER;
  case element_type::STRING: return PP_KIND_STRING;
  case element_type::OBJECT: return PP_KIND_OBJECT;
  case element_type::ARRAY: return PP_KIND_ARRAY;
  }
  return PP_KIND_NULL;
}

/// Fills `slot` from a value of the current document; strings point into its string buffer.
inline void fill(pp_slot &slot, element value, const char *arena) noexcept {
  slot.kind = kind_of(value.type());
  switch (slot.kind) {
  case PP_KIND_BOOL:
    slot.boolean = value.get_bool().value_unsafe();
    break;
  case PP_KIND_NUMBER:
    // get_double converts int64/uint64 to the nearest double.
    slot.number = value.get_double().value_unsafe();
    break;
  case PP_KIND_STRING: {
    std::string_view s = value.get_string().value_unsafe();
    slot.string_offset = static_cast<size_t>(s.data() - arena);
    slot.string_length = s.size();
    break;
  }
  default:
    break;
  }
}

} // namespace

struct pp_parser {
  std::unique_ptr<simdjson::dom::parser> dom;
  /// Padded copy of a line that came without enough readable bytes after it.
  std::unique_ptr<char[]> copy;
  size_t copy_capacity = 0;
  pp_result result;
};

namespace {

/// A fresh DOM parser with the initial capacity and PP_MAX_DEPTH, or null.
std::unique_ptr<simdjson::dom::parser> make_dom_parser() noexcept {
  std::unique_ptr<simdjson::dom::parser> dom(new (std::nothrow) simdjson::dom::parser());
  if (!dom) return nullptr;
  if (dom->allocate(kInitialCapacity, PP_MAX_DEPTH) != simdjson::SUCCESS) return nullptr;
  if (dom->doc.allocate(kInitialCapacity) != simdjson::SUCCESS) return nullptr;
  return dom;
}

void clear(pp_result &result) noexcept {
  result.arena = nullptr;
  result.root_kind = PP_KIND_ABSENT;
  for (pp_slot &slot : result.slots) slot.kind = PP_KIND_ABSENT;
}

/// Makes the parser (and its document) hold at least `length` bytes, growing geometrically so a
/// run of ever longer lines does not reallocate at each one.
simdjson::error_code reserve(pp_parser &p, size_t length) noexcept {
  simdjson::dom::parser &dom = *p.dom;
  if (length <= dom.capacity() && length <= dom.doc.capacity()) return simdjson::SUCCESS;
  if (length > dom.max_capacity()) return simdjson::CAPACITY;
  size_t want = dom.capacity() * 2;
  if (want < length) want = length;
  if (want > dom.max_capacity()) want = dom.max_capacity();
  simdjson::error_code error = dom.allocate(want, PP_MAX_DEPTH);
  if (!error) error = dom.doc.allocate(want);
  if (error) p.dom.reset(); // half-grown buffers: the next line starts from a fresh parser
  return error;
}

pp_status status_for_error(simdjson::error_code error, const char *line, size_t length) noexcept {
  switch (error) {
  case simdjson::MEMALLOC: return PP_STATUS_OUT_OF_MEMORY;
  case simdjson::CAPACITY: return PP_STATUS_TOO_LARGE;
  default:
    // Invalid UTF-8 wins over any syntax error, whichever simdjson met first (the order the
    // Foundation parser checks in).
    if (!simdjson::validate_utf8(line, length)) return PP_STATUS_INVALID_UTF8;
    if (error == simdjson::DEPTH_ERROR || error == simdjson::NUMBER_ERROR) return PP_STATUS_BEYOND_LIMITS;
    return PP_STATUS_NOT_JSON;
  }
}

pp_status parse(pp_parser &p, const char *line, size_t length, size_t readable) {
  // Give back the buffers of an earlier huge line (the previous result is dead by now).
  if (p.dom && length <= kRetainedCapacity && p.dom->capacity() > kRetainedCapacity) p.dom.reset();
  if (!p.dom) {
    // After giving buffers back, or after an allocation failed: start afresh.
    p.dom = make_dom_parser();
    if (!p.dom) return PP_STATUS_OUT_OF_MEMORY;
  }
  if (length <= kRetainedCapacity && p.copy_capacity > kRetainedCapacity + simdjson::SIMDJSON_PADDING) {
    p.copy.reset();
    p.copy_capacity = 0;
  }
  if (auto error = reserve(p, length)) return status_for_error(error, line, length);

  const char *input = line;
  if (readable < length || readable - length < simdjson::SIMDJSON_PADDING) {
    size_t needed = length + simdjson::SIMDJSON_PADDING;
    if (p.copy_capacity < needed) {
      size_t want = p.copy_capacity * 2;
      if (want < needed) want = needed;
      p.copy.reset(new (std::nothrow) char[want]);
      p.copy_capacity = p.copy ? want : 0;
      if (!p.copy) return PP_STATUS_OUT_OF_MEMORY;
    }
    if (length > 0) std::memcpy(p.copy.get(), line, length);
    std::memset(p.copy.get() + length, ' ', simdjson::SIMDJSON_PADDING);
    input = p.copy.get();
  }

  simdjson::dom::parser &dom = *p.dom;
  element root;
  if (auto error = dom.parse(input, length, false).get(root)) {
    return status_for_error(error, line, length);
  }
  p.result.root_kind = kind_of(root.type());
  if (root.type() != element_type::OBJECT) return PP_STATUS_NOT_AN_OBJECT;

  const char *arena = reinterpret_cast<const char *>(dom.doc.string_buf.get());
  pp_slot *slots = p.result.slots;
  for (simdjson::dom::key_value_pair member : root.get_object().value_unsafe()) {
    int field = top_level_field(member.key.data(), member.key.size());
    if (field < 0) continue;
    fill(slots[field], member.value, arena);
    if (field != PP_FIELD_INDICATOR) continue;
    // A repeated `indicator` keeps only the last one's members.
    for (int i = PP_FIELD_INDICATOR_KIND; i <= PP_FIELD_INDICATOR_CYCLE_MS; ++i) {
      slots[i].kind = PP_KIND_ABSENT;
    }
    if (slots[field].kind != PP_KIND_OBJECT) continue;
    for (simdjson::dom::key_value_pair inner : member.value.get_object().value_unsafe()) {
      int member_field = indicator_field(inner.key.data(), inner.key.size());
      if (member_field >= 0) fill(slots[member_field], inner.value, arena);
    }
  }
  p.result.arena = arena;
  return PP_STATUS_OK;
}

} // namespace

extern "C" {

pp_parser *pp_parser_create(void) {
  try {
    std::unique_ptr<pp_parser> p(new (std::nothrow) pp_parser());
    if (!p) return nullptr;
    p->dom = make_dom_parser();
    if (!p->dom) return nullptr;
    clear(p->result);
    p->result.status = PP_STATUS_OK;
    return p.release();
  } catch (...) {
    return nullptr;
  }
}

void pp_parser_destroy(pp_parser *parser) { delete parser; }

const pp_result *pp_parse_line(pp_parser *parser, const char *line, size_t length,
                               size_t readable) {
  pp_result &result = parser->result;
  clear(result);
  if (line == nullptr) {
    line = "";
    length = 0;
    readable = 0;
  }
  pp_status status;
  try {
    status = parse(*parser, line, length, readable);
  } catch (...) {
    status = PP_STATUS_OUT_OF_MEMORY;
  }
  if (status != PP_STATUS_OK) {
    pp_kind root_kind = status == PP_STATUS_NOT_AN_OBJECT ? result.root_kind : PP_KIND_ABSENT;
    clear(result);
    result.root_kind = root_kind;
  }
  result.status = status;
  return &result;
}

size_t pp_required_padding(void) { return simdjson::SIMDJSON_PADDING; }

const char *pp_field_key(size_t field) {
  return field < PP_FIELD_COUNT ? kFieldKeys[field] : nullptr;
}

} // extern "C"
