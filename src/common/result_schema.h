#pragma once
// The version of the result document's contract: the envelope every command's JSON document starts with and
// the common keys of its "sluice" section (docs/schema/sluice-result.schema.json). report/result_document.h
// writes it as "sluice"."schema_version"; compare, report and history refuse a document of a newer version
// (common/json_read.h, check_result_schema). Here, not in report/, because those readers may include only
// common/.

namespace sluice {

// Bump it (and the schema's "const", which tests/report/result_document_test.cpp compares) when a reader of the
// previous version would misread a document of the new one: a key of the envelope or of a command's section
// removed or renamed, or given another type, unit or meaning. Adding a key does not bump it: readers ignore
// keys they do not know. After a bump an older sluice refuses the new documents instead of misreading them.
inline constexpr int kResultSchemaVersion = 1;

// The version of a document that declares none: fio's own, and sluice's written before schema_version existed.
inline constexpr int kLegacyResultSchemaVersion = 0;

}  // namespace sluice
