#include "codec/java_classes.hpp"

#include <array>
#include <string>

#include "redisson/error.hpp"

namespace redisson::detail {
namespace {

using K = ValueKind;
using L = KryoLayout;

// The most used classes first: lookups are a linear scan.
constexpr std::array<JavaCollectionClass, 32> kClasses{{
    {"java.util.ArrayList", K::list, L::collection, true},
    {"java.util.HashMap", K::map, L::map, true},
    {"java.util.HashSet", K::set, L::collection, true},
    {"java.util.LinkedHashMap", K::map, L::map, true},
    {"java.util.LinkedHashSet", K::set, L::collection, true},
    {"java.util.LinkedList", K::list, L::collection, true},
    {"java.util.Arrays$ArrayList", K::list, L::collection, true},
    {"java.util.TreeMap", K::map, L::map_comparator, true},
    {"java.util.TreeSet", K::set, L::collection_comparator, true},
    {"java.util.concurrent.ConcurrentHashMap", K::map, L::map, true},
    {"java.util.ImmutableCollections$ListN", K::list, L::collection_no_nulls, true},
    {"java.util.ImmutableCollections$List12", K::list, L::collection_no_nulls, true},
    {"java.util.ImmutableCollections$SubList", K::list, L::collection_no_nulls, true},
    {"java.util.ImmutableCollections$SetN", K::set, L::collection_no_nulls, true},
    {"java.util.ImmutableCollections$Set12", K::set, L::collection_no_nulls, true},
    {"java.util.ImmutableCollections$MapN", K::map, L::map, true},
    {"java.util.ImmutableCollections$Map1", K::map, L::map, true},
    {"java.util.Collections$SingletonList", K::list, L::singleton, true},
    {"java.util.Collections$SingletonSet", K::set, L::singleton, true},
    {"java.util.Collections$SingletonMap", K::map, L::singleton, true},
    {"java.util.Collections$EmptyList", K::list, L::empty, true},
    {"java.util.Collections$EmptySet", K::set, L::empty, true},
    {"java.util.Collections$EmptyMap", K::map, L::empty, true},
    {"java.util.Vector", K::list, L::collection, true},
    {"java.util.Stack", K::list, L::collection, true},
    {"java.util.concurrent.CopyOnWriteArrayList", K::list, L::collection, true},
    {"java.util.concurrent.CopyOnWriteArraySet", K::set, L::collection, true},
    {"java.util.Hashtable", K::map, L::map, true},
    {"java.util.ArrayDeque", K::list, L::collection, false},
    {"java.util.PriorityQueue", K::list, L::collection_comparator, false},
    {"java.util.concurrent.ConcurrentLinkedQueue", K::list, L::collection, false},
    {"java.util.concurrent.ConcurrentLinkedDeque", K::list, L::collection, false},
}};

}  // namespace

const JavaCollectionClass* find_java_collection(std::string_view name) noexcept {
  for (const auto& c : kClasses) {
    if (c.name.size() == name.size() && c.name == name) return &c;
  }
  return nullptr;
}

const JavaCollectionClass& writable_collection(const Value& v, std::string_view codec) {
  const std::string prefix = std::string(codec) + ": ";
  const auto* c = find_java_collection(v.java_class());
  if (c == nullptr) {
    throw error(errc::codec_error, prefix + "cannot write a " + std::string(kind_name(v.kind())) +
                                       " of class '" + v.java_class() +
                                       "' (docs/codecs.md lists the collection classes it writes)");
  }
  if (c->kind != v.kind()) {
    throw error(errc::codec_error, prefix + v.java_class() + " is a " +
                                       std::string(kind_name(c->kind)) + ", not a " +
                                       std::string(kind_name(v.kind())));
  }
  return *c;
}

}  // namespace redisson::detail
