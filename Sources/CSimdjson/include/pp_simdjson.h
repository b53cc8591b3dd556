// A small C interface to simdjson's DOM parser, shaped for PullParity's parsing seam
// (`SimdjsonLineParser`): one JSON Lines line in, the known fields of the event out.
//
// Plain C types only, so Swift imports it as is. No C++ exception ever crosses this boundary.
// A handle is used by one thread at a time.

#ifndef PP_SIMDJSON_H
#define PP_SIMDJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a line turned out to be.
typedef enum __attribute__((enum_extensibility(closed))) pp_status : uint8_t {
  /// A JSON object: the slots hold its known fields.
  PP_STATUS_OK = 0,
  /// Not JSON (syntax error, NaN, trailing content, truncated, empty, ...). The bytes are valid
  /// UTF-8.
  PP_STATUS_NOT_JSON = 1,
  /// Valid JSON, but the root is not an object (array, string, number, true/false/null).
  PP_STATUS_NOT_AN_OBJECT = 2,
  /// The bytes are not valid UTF-8 (decided before any JSON syntax error).
  PP_STATUS_INVALID_UTF8 = 3,
  /// The parser could not allocate memory for the line.
  PP_STATUS_OUT_OF_MEMORY = 4,
  /// The line is longer than simdjson accepts (4 GiB).
  PP_STATUS_TOO_LARGE = 5,
  /// Valid UTF-8 that simdjson refused for one of its limits (nesting deeper than PP_MAX_DEPTH,
  /// a number beyond 64-bit integers or doubles) or a number error: the caller decides with a
  /// parser without those limits whether it is JSON.
  PP_STATUS_BEYOND_LIMITS = 6,
} pp_status;

/// The JSON kind of one slot.
typedef enum __attribute__((enum_extensibility(closed))) pp_kind : uint8_t {
  /// The key did not occur.
  PP_KIND_ABSENT = 0,
  PP_KIND_NULL = 1,
  PP_KIND_BOOL = 2,
  PP_KIND_NUMBER = 3,
  PP_KIND_STRING = 4,
  PP_KIND_OBJECT = 5,
  PP_KIND_ARRAY = 6,
} pp_kind;

/// One slot per known key, in the order of Swift's `EventField` (its raw values): 28 top-level
/// keys, then the 4 members of the `indicator` object. `pp_field_key` names them.
enum {
  PP_FIELD_EVENT_ID = 0,
  PP_FIELD_SESSION_ID,
  PP_FIELD_TS,
  PP_FIELD_PLATFORM,
  PP_FIELD_APP,
  PP_FIELD_TYPE,
  PP_FIELD_SEQ,
  PP_FIELD_PROFILE,
  PP_FIELD_APP_VERSION,
  PP_FIELD_OS_VERSION,
  PP_FIELD_DEVICE,
  PP_FIELD_SCREEN,
  PP_FIELD_EMPTY,
  PP_FIELD_DISTANCE,
  PP_FIELD_OFFSET,
  PP_FIELD_REASON,
  PP_FIELD_TEXT,
  PP_FIELD_STATE,
  PP_FIELD_TRIGGER,
  PP_FIELD_INDICATOR,
  PP_FIELD_PROGRESS,
  PP_FIELD_VISIBLE,
  PP_FIELD_KEY,
  PP_FIELD_OK,
  PP_FIELD_ERROR,
  PP_FIELD_MESSAGE,
  PP_FIELD_INSTALL_ID,
  PP_FIELD_GESTURE_OBSERVED,
  PP_FIELD_INDICATOR_KIND,
  PP_FIELD_INDICATOR_COUNT,
  PP_FIELD_INDICATOR_STAGGER_MS,
  PP_FIELD_INDICATOR_CYCLE_MS,
  PP_FIELD_COUNT
};

/// Containers nested deeper than this are not accepted (the limit of Foundation's
/// JSONSerialization, so both parsers of the seam agree).
#define PP_MAX_DEPTH 512

/// The value of one known key. Only the member that `kind` names is meaningful.
typedef struct pp_slot {
  /// PP_KIND_NUMBER: the value (integers are converted to the nearest double).
  double number;
  /// PP_KIND_STRING: the unescaped, valid UTF-8 bytes are
  /// `arena[string_offset ..< string_offset + string_length]` (`pp_result.arena`).
  size_t string_offset;
  size_t string_length;
  pp_kind kind;
  /// PP_KIND_BOOL: the value.
  bool boolean;
} pp_slot;

/// The outcome of `pp_parse_line`. Owned by the handle; valid until the next call on that handle.
typedef struct pp_result {
  /// Base of the string arena (owned by the handle). NULL unless status is PP_STATUS_OK.
  const char *arena;
  pp_status status;
  /// PP_STATUS_OK and PP_STATUS_NOT_AN_OBJECT: the kind of the root value; else PP_KIND_ABSENT.
  pp_kind root_kind;
  /// When status is PP_STATUS_OK; otherwise every slot is PP_KIND_ABSENT.
  /// A repeated key keeps its last value; the indicator member slots are filled from the last
  /// `indicator` key when its value is an object.
  pp_slot slots[PP_FIELD_COUNT];
} pp_result;

typedef struct pp_parser pp_parser;

/// A new handle, or NULL when memory is short. Free it with `pp_parser_destroy`.
pp_parser *pp_parser_create(void);

/// Frees the handle (NULL is allowed).
void pp_parser_destroy(pp_parser *parser);

/// Parses one line (no line end). `line` may be read up to `readable` bytes (`readable >=
/// length`): with at least `pp_required_padding()` bytes past the end of the line it is parsed in
/// place, otherwise it is first copied into a padded buffer owned by the handle. The whole line is
/// validated (UTF-8, syntax, no content after the root value). `parser` must not be NULL; `line`
/// may be NULL when `length` is 0. Never returns NULL.
const pp_result *pp_parse_line(pp_parser *parser, const char *line, size_t length,
                               size_t readable);

/// The bytes past the end of a line that let `pp_parse_line` parse it in place (SIMDJSON_PADDING).
size_t pp_required_padding(void);

/// The JSON key of slot `field` (for `indicator` members, the key inside the object), or NULL.
const char *pp_field_key(size_t field);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // PP_SIMDJSON_H
