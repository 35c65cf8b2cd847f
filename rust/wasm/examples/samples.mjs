// The values the example servers send for the request "fvc:samples": one or more of every kind
// a dialect has, made in JavaScript, each sent as [name, value]. Godot clients compare them with
// the same values made in GDScript (rust/wasm/tests/godot4/ws_client.gd for Godot 4,
// tests/peers/samples_client3.gd for Godot 3).

import {
  AABB,
  Basis,
  Callable,
  Color,
  Float,
  GodotObject,
  EncodedObjectAsID,
  NodePath,
  PackedColorArray,
  PackedStringArray,
  PackedVector2Array,
  PackedVector3Array,
  PackedVector4Array,
  Plane,
  Projection,
  Quaternion,
  RID,
  Rect2,
  Rect2i,
  Signal,
  StringName,
  Transform2D,
  Transform3D,
  TypedArray,
  TypedDictionary,
  Vector2,
  Vector2i,
  Vector3,
  Vector3i,
  Vector4,
  Vector4i,
} from "fast-var-codec";

/** [name, value] pairs for `dialect` ("godot3" gets the types Godot 3 has; "godot4..." all). */
export function sampleValues(dialect) {
  const v2 = (x, y) => new Vector2(x, y);
  const v3 = (x, y, z) => new Vector3(x, y, z);
  const block = Uint8Array.from({ length: 256 }, (_, i) => i);
  const bigBytes = new Uint8Array(256 * 4100);
  for (let i = 0; i < 4100; i++) bigBytes.set(block, i * 256);
  const values = [
    ["nil", null],
    ["bool", true],
    ["int", -42],
    ["int_min64", -(2n ** 63n)], // beyond ±2^53: a BigInt
    ["int_max64", 2n ** 63n - 1n],
    ["int_above_32", 2 ** 40 + 7],
    ["float", 0.1],
    ["float_negative_zero", -0],
    ["float_inf", -Infinity],
    ["float_1e300", new Float(1e300)], // integral: a Float keeps it a float
    ["string", 'héllo 日本 🎼 "q" \\ \t\n'],
    ["string_empty", ""],
    ["vector2", v2(1.5, -0.1)],
    ["vector3", v3(0.1, 0.2, 0.3)],
    ["rect2", new Rect2(v2(1, 2), v2(3, 4.5))],
    ["transform2d", new Transform2D(v2(1, 2), v2(3, 4), v2(5, 6))],
    ["plane", new Plane(v3(0, 1, 0), 2.5)],
    ["quaternion", new Quaternion(0.1, 0.2, 0.3, 0.9)],
    ["aabb", new AABB(v3(1, 2, 3), v3(4, 5, 6))],
    ["basis", new Basis(v3(1, 2, 3), v3(4, 5, 6), v3(7, 8, 9))],
    ["transform3d", new Transform3D(new Basis(v3(1, 0, 0), v3(0, 0.5, 0), v3(0, 0, 2)), v3(10, 11, 12))],
    ["color", new Color(0.1, 0.2, 0.3, 0.4)],
    ["node_path", new NodePath("/root/Main/Player:position:x")],
    ["node_path_relative", new NodePath("../Enemies/Boss")],
    ["object_as_id", new EncodedObjectAsID(123456789n)],
    ["object", new GodotObject("Resource", { resource_name: "made in JavaScript" })],
    ["bytes", block],
    ["int32s", Int32Array.of(1, -2, 2 ** 31 - 1, -(2 ** 31))],
    ["float32s", Float32Array.of(1.5, -0.1, 1e30)],
    ["strings", new PackedStringArray(["a", "", "é日本"])],
    ["vector2s", new PackedVector2Array([1, 2, -3, 4.5])],
    ["vector3s", new PackedVector3Array([1, 2, 3, -0.5, 0, 1e10])],
    ["colors", new PackedColorArray([1, 0, 0, 1, 0.1, 0.2, 0.3, 0.4])],
    ["array", [1, "two", 3.5, [4, [5, [6]]], { x: null }]],
    // Keys other than Strings: a Map.
    ["dictionary", new Map([["a", 1], [2, "b"], [v2(1, 2), [1, 2.5, "x"]], ["nested", { k: [{ deep: null }] }]])],
    [
      "game_state",
      {
        players: [
          {
            name: "ann",
            pos: v3(1, 2, 3),
            inventory: new PackedStringArray(["sword"]),
            stats: { hp: 10, mp: 2.5 },
            team: new Color(0, 0.5, 1, 1),
          },
          {
            name: "bob",
            pos: v3(-4, 0, 8.25),
            inventory: new PackedStringArray(),
            stats: { hp: 0, mp: -0 },
            path: new NodePath("Players/bob"),
          },
        ],
        map: { tiles: Int32Array.of(0, 1, 1, 2, 3, 5, 8), spawn: [v2(0, 0), v2(10, -5)] },
        meta: [[], {}, [[[1]]], null, true],
      },
    ],
    // Large enough (1 MiB) that the engine receives it in many pieces.
    ["big_bytes", bigBytes],
    ["big_array", Array.from({ length: 60000 }, (_, i) => (i % 2 ? i * 3 : String(i)))],
  ];
  if (dialect.startsWith("godot4")) {
    values.push(
      ["string_name", new StringName("player_name")],
      ["vector2i", new Vector2i(-1, 2 ** 31 - 1)],
      ["vector3i", new Vector3i(1, -2, 3)],
      ["vector4", new Vector4(0.1, -0.2, 3, 4e20)],
      ["vector4i", new Vector4i(-(2 ** 31), 0, 7, 2 ** 31 - 1)],
      ["rect2i", new Rect2i(new Vector2i(1, 2), new Vector2i(3, 4))],
      [
        "projection",
        new Projection(new Vector4(1, 2, 3, 4), new Vector4(5, 6, 7, 8), new Vector4(9, 10, 11, 12), new Vector4(13, 14, 15, 16)),
      ],
      ["rid", new RID(1n << 40n)],
      ["signal", new Signal("ready", 1234n)],
      ["callable", new Callable()],
      ["int64s", BigInt64Array.of(1n, -(2n ** 63n), 2n ** 63n - 1n)],
      ["float64s", Float64Array.of(0.1, -0, 1e300)],
      ["vector4s", new PackedVector4Array([1, 2, 3, 4, -1, 0.5, 0, 0.1])],
      ["typed_ints", new TypedArray("int", [1, -2, 2 ** 40])],
      ["typed_vector2s", new TypedArray("Vector2", [v2(1, 2), v2(0.5, -0.25)])],
      ["typed_string_names", new TypedArray("StringName", [new StringName("a"), new StringName("日本")])],
      ["typed_arrays", new TypedArray("Array", [[1], [], ["x", null]])],
      ["typed_dictionary", new TypedDictionary("String", "int", { hp: 10, mp: 5 })],
      ["typed_dictionary_sn_vector3", new TypedDictionary("StringName", "Vector3", new Map([[new StringName("spawn"), v3(1, 2, 3)]]))],
      ["typed_dictionary_variant_values", new TypedDictionary("int", null, new Map([[1, "one"], [2, [2]]]))],
      ["typed_inside_untyped", [new TypedArray("int", [1]), { t: new TypedArray("String", ["s"]) }]],
      // Three keys to Godot: the int 1, the float 1.0 (a Float) and true.
      ["int_float_bool_keys", new Map([[1, "int"], [new Float(1), "float"], [true, "bool"]])],
      ["big_int_and_unicode_keys", new Map([[2n ** 62n, "big"], [-(2n ** 63n), "min"], ["日本", new StringName("é")]])],
    );
  }
  return values;
}
