// Calls that must NOT compile under `strict`: each `@ts-expect-error` asserts that the line
// after it is an error (tsc reports an unused directive otherwise), as the encoder or the
// options would refuse them at run time.
import { Codec, decode, encode, encodeFramed, Callable, StringName, Vector2 } from "fast-var-codec";
import * as fvc from "fast-var-codec";

// @ts-expect-error a Date is no Godot value
encode(new Date());
// @ts-expect-error a function is no Godot value
encode(() => 1);
// @ts-expect-error a symbol is no Godot value
encode(Symbol());
// @ts-expect-error a Date inside a container neither
encodeFramed({ when: new Date() });
// @ts-expect-error a function inside an Array neither
encode([1, () => 1]);
// @ts-expect-error one class name is a list of one: ["Node"]
new Codec({ allowObjects: true, allowedClasses: "Node" });
// @ts-expect-error nor in a call's options
decode(new Uint8Array(4), { allowObjects: true, allowedClasses: "Resource" });

// useMap is gone (every Dictionary is a Map unless dictionaryAs: "object").
// @ts-expect-error no useMap
decode(new Uint8Array(4), { useMap: true });
// @ts-expect-error dictionaryAs is "map" or "object"
new Codec({ dictionaryAs: "json" });

// The 0.x names of the stream reader are gone (StreamDecoder, Codec.streamDecoder).
// @ts-expect-error no Codec.decoder
new Codec().decoder();
// @ts-expect-error no Decoder
new fvc.Decoder();
// @ts-expect-error no readGodot3Save (readStoreVarFile with dialect "godot3")
fvc.readGodot3Save(new Uint8Array(4));

// A ConfigFile is sections of keys: not a value alone, nor sections that are not Maps or objects.
// @ts-expect-error sections, not an Array
fvc.writeConfigFile([1, 2]);
// @ts-expect-error a section is a Map or an object of keys
fvc.writeConfigFile({ s: 1 });
// @ts-expect-error a Date is no Godot value, in a ConfigFile neither
fvc.writeConfigFile({ s: { when: new Date() } });
// @ts-expect-error a file's bytes or a text
fvc.readConfigFile(42);

// The classes are not structural: another object of the same shape is not one of them.
// @ts-expect-error a Date is no Callable
const c: Callable = new Date();
// @ts-expect-error a function (it has a `name`) is no StringName
const s: StringName = () => 1;
// @ts-expect-error a plain object is no Vector2 (it encodes as a Dictionary)
const v: Vector2 = { x: 1, y: 2 };
void c;
void s;
void v;

// An error's constructor takes its fields, not one message (Error's constructor).
// @ts-expect-error a DecodeError is made from its offset, Godot error and reason
new fvc.DecodeError("bad bytes");
