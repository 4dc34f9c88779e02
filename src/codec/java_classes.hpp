// The Java collection and map classes the kryo5 and json codecs read and write: which Value kind
// each stands for and how Kryo 5 lays out its body.
#pragma once

#include <cstdint>
#include <string_view>

#include "redisson/value.hpp"

namespace redisson::detail {

/// How Kryo 5.6 (with Redisson's Kryo5Codec settings) writes the body of a class.
enum class KryoLayout : std::uint8_t {
  /// CollectionSerializer: size, then either one element class (+ a hasNull byte) and bare
  /// elements, or a class header per element.
  collection,
  /// ImmutableCollectionsSerializers (List.of, Set.of): as `collection` without the hasNull byte;
  /// they cannot hold null.
  collection_no_nulls,
  /// TreeSet, PriorityQueue: as `collection` with a comparator (null here) after the size.
  collection_comparator,
  /// MapSerializer: size, then key and value with their class headers.
  map,
  /// TreeMap: as `map` with a comparator (null here) after the size.
  map_comparator,
  /// Collections.emptyList()/emptySet()/emptyMap(): no body.
  empty,
  /// Collections.singletonList()/singleton()/singletonMap(): the element (or key and value) with
  /// its class header.
  singleton,
};

struct JavaCollectionClass {
  std::string_view name;  ///< "java.util.ArrayList"
  ValueKind kind;         ///< list, set or map
  KryoLayout layout;
  /// hashCode() follows the List/Set/Map contract (from the contents); false for the queues,
  /// whose hashCode() is Object's (identity).
  bool content_hash;
};

/// The class named `name`, or nullptr when the codecs do not know it.
const JavaCollectionClass* find_java_collection(std::string_view name) noexcept;

/// The class the list, set or map `v` is written with. A class the codecs do not know, or one
/// of another kind, is errc::codec_error ("<codec>: ..."): what is written must read back.
const JavaCollectionClass& writable_collection(const Value& v, std::string_view codec);

}  // namespace redisson::detail
