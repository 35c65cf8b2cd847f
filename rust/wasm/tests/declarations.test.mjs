// The package's type declarations (index.d.ts, written by hand) against the module a user imports
// (index.js), both ways: every export, its kind (function, class, constant), each class's base,
// constructor, members (methods, getters, properties) and statics, and every function's and
// method's parameters (how many are required, how many in all). The declarations are read by the
// TypeScript compiler (typescript, installed beside the package by tests/run_npm_tests.sh), the
// module is the one `import` gives, its classes' prototypes as they are at run time, and the
// parameters and the properties a class assigns to `this` from the source of each function
// (Function.prototype.toString, parsed by the same compiler). No list of names is kept here.
//
// Conventions of the JavaScript side: a name that starts with `_` is private, as are symbols
// other than the well-known ones (`Symbol.iterator`); a parameter is optional when it has a
// default value (`options = NO_OPTIONS`), as a function's `length` counts.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import * as whole from "fast-var-codec";
import * as codecEntry from "fast-var-codec/codec";

const COMPILER_OPTIONS = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2022.d.ts"],
  types: [],
  noEmit: true,
};

/** The declarations TypeScript finds for `import ... from specifier` here. */
function declarationsFile(specifier) {
  const r = ts.resolveModuleName(specifier, path.resolve("test", "user.ts"), COMPILER_OPTIONS, ts.sys);
  const file = r.resolvedModule?.resolvedFileName;
  assert.ok(file?.endsWith(".d.ts"), `TypeScript resolves "${specifier}" to ${file}, not to declarations`);
  return file;
}

// --- parameters ----------------------------------------------------------------------------------

/** `{required, total}` of a parameter list (a rest parameter: total Infinity). */
function arity(parameters) {
  let required = 0;
  let total = 0;
  let optionalSeen = false;
  for (const p of parameters) {
    if (ts.isIdentifier(p.name) && p.name.text === "this") continue;
    if (p.dotDotDotToken) return { required, total: Infinity };
    total++;
    if (p.questionToken || p.initializer) optionalSeen = true;
    else if (!optionalSeen) required++;
  }
  return { required, total };
}

/** The union of the arities of overloads: the fewest required, the most in all. */
function union(arities) {
  if (arities.length === 0) return null;
  return {
    required: Math.min(...arities.map((a) => a.required)),
    total: Math.max(...arities.map((a) => a.total)),
  };
}

function showArity(a) {
  if (a.total === null) return `${a.required} required`;
  const total = a.total === Infinity ? "any number" : a.total;
  return a.required === a.total ? `${total}` : `${a.required} required of ${total}`;
}

function sameArity(declared, actual) {
  return declared.required === actual.required && (actual.total === null || declared.total === actual.total);
}

// --- the declarations ----------------------------------------------------------------------------

/**
 * What a declarations file says of each value export: `{kind: "function", arity}`,
 * `{kind: "constant"}` or `{kind: "class", base, construct, members, allMembers, statics}` with
 * members (declared in the class itself) and statics as Maps of name → `{kind: "method" |
 * "property", readonly, arity}`, and allMembers the names of every member, inherited ones too.
 */
function declaredApi(file) {
  const program = ts.createProgram([file], COMPILER_OPTIONS);
  const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  assert.deepEqual(errors, [], `${file} does not compile`);
  const checker = program.getTypeChecker();
  const api = new Map();
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)))) {
    const s = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(s.flags & ts.SymbolFlags.Value)) continue; // a type or an interface: nothing at run time
    if (s.flags & ts.SymbolFlags.Class) {
      api.set(exported.name, declaredClass(checker, s));
    } else if (s.flags & ts.SymbolFlags.Function) {
      api.set(exported.name, { kind: "function", arity: union(s.declarations.map((d) => arity(d.parameters))) });
    } else {
      api.set(exported.name, { kind: "constant" });
    }
  }
  return api;
}

function isPrivate(declaration) {
  return (ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0;
}

/** A member symbol as `{kind, readonly, arity}`, or null for a private one. */
function declaredMember(member) {
  const declarations = member.declarations ?? [];
  if (declarations.some(isPrivate)) return null;
  if (member.flags & ts.SymbolFlags.Method) {
    return { kind: "method", readonly: false, arity: union(declarations.map((d) => arity(d.parameters))) };
  }
  const readonly =
    declarations.some((d) => ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Readonly) ||
    ((member.flags & ts.SymbolFlags.GetAccessor) !== 0 && (member.flags & ts.SymbolFlags.SetAccessor) === 0);
  return { kind: "property", readonly, arity: null };
}

function declaredClass(checker, s) {
  const declaration = s.declarations.find(ts.isClassDeclaration);
  const instance = checker.getDeclaredTypeOfSymbol(s);
  const base = checker.getBaseTypes(instance)[0]?.symbol?.name ?? null;
  const construct = union(
    checker
      .getSignaturesOfType(checker.getTypeOfSymbol(s), ts.SignatureKind.Construct)
      .map((sig) => arity(sig.getParameters().map((p) => p.valueDeclaration))),
  );
  const members = new Map();
  const allMembers = new Set();
  for (const p of checker.getPropertiesOfType(instance)) {
    const name = checker.symbolToString(p);
    allMembers.add(name);
    if (!(p.declarations ?? []).some((d) => d.parent === declaration)) continue; // inherited
    const m = declaredMember(p);
    if (m) members.set(name, m);
  }
  const statics = new Map();
  for (const p of checker.getPropertiesOfType(checker.getTypeOfSymbol(s))) {
    if (p.name === "prototype" || !(p.declarations ?? []).some((d) => d.parent === declaration)) continue;
    const m = declaredMember(p);
    if (m) statics.set(checker.symbolToString(p), m);
  }
  return { kind: "class", base, construct, members, allMembers, statics };
}

// --- the module ----------------------------------------------------------------------------------

/** `Symbol.iterator` → "[Symbol.iterator]" (as TypeScript names such a member); others: private. */
const WELL_KNOWN = new Map(
  Object.getOwnPropertyNames(Symbol)
    .filter((k) => typeof Symbol[k] === "symbol")
    .map((k) => [Symbol[k], `[Symbol.${k}]`]),
);

function publicKeys(object) {
  const names = Object.getOwnPropertyNames(object).filter((k) => !k.startsWith("_"));
  const symbols = Object.getOwnPropertySymbols(object).filter((k) => WELL_KNOWN.has(k));
  return [...names, ...symbols];
}

const keyName = (k) => (typeof k === "symbol" ? WELL_KNOWN.get(k) : k);

const isNative = (f) => /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(f));
const isClass = (f) => typeof f === "function" && /^class\b/.test(Function.prototype.toString.call(f));

/**
 * The syntax tree of a function's source text: a function, an arrow or a class (an expression),
 * or a method or accessor (`name(...) {...}`, `get name() {...}`: a member of an object literal).
 */
function functionNode(f) {
  const text = Function.prototype.toString.call(f);
  const expression = /^(async\s+)?(function\b|class\b|\(|[A-Za-z_$][\w$]*\s*=>)/.test(text);
  const source = ts.createSourceFile("f.js", expression ? `(${text});` : `({${text}});`, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const e = source.statements[0].expression.expression;
  return expression ? e : e.properties[0];
}

/** A function's arity from its source; a native one's from its `length` (its total unknown). */
function actualArity(f) {
  if (isNative(f)) return { required: f.length, total: null };
  return arity(functionNode(f).parameters);
}

/** The names a class's own code assigns on `this` (in its methods, and arrows inside them). */
function thisAssignments(cls) {
  const names = new Set();
  const visit = (node) => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      node.left.expression.kind === ts.SyntaxKind.ThisKeyword
    ) {
      names.add(node.left.name.text);
    }
    // A function or a class inside has a `this` of its own.
    if (ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node) || ts.isClassLike(node)) return;
    ts.forEachChild(node, visit);
  };
  for (const member of functionNode(cls).members) {
    if (ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Static) continue;
    ts.forEachChild(member, visit);
  }
  return names;
}

/** A property of an object as `{kind, readonly, arity}`. */
function actualMember(descriptor) {
  if (descriptor.get || descriptor.set) return { kind: "property", readonly: !descriptor.set, arity: null };
  if (typeof descriptor.value === "function" && !isClass(descriptor.value)) {
    return { kind: "method", readonly: false, arity: actualArity(descriptor.value) };
  }
  return { kind: "property", readonly: !descriptor.writable, arity: null };
}

/** The classes of `cls`'s prototype chain, itself first, to the first native one. */
function lineage(cls) {
  const chain = [];
  for (let c = cls; typeof c === "function" && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    chain.push(c);
    if (isNative(c)) break;
  }
  return chain;
}

function actualClass(cls) {
  const parent = Object.getPrototypeOf(cls);
  const base = parent === Function.prototype ? null : parent.name;
  // The constructor of the nearest class in the chain that writes one.
  let construct = { required: 0, total: 0 };
  for (const c of lineage(cls)) {
    if (isNative(c)) {
      construct = { required: c.length, total: null };
      break;
    }
    const ctor = functionNode(c).members.find(ts.isConstructorDeclaration);
    if (ctor) {
      construct = arity(ctor.parameters);
      break;
    }
  }
  const members = new Map();
  if (!isNative(cls)) {
    for (const name of thisAssignments(cls)) {
      if (!name.startsWith("_")) members.set(name, { kind: "property", readonly: false, arity: null });
    }
  }
  for (const k of publicKeys(cls.prototype)) {
    if (k === "constructor") continue;
    members.set(keyName(k), actualMember(Object.getOwnPropertyDescriptor(cls.prototype, k)));
  }
  const allMembers = new Set();
  for (let p = cls.prototype; p !== null; p = Object.getPrototypeOf(p)) {
    for (const k of publicKeys(p)) allMembers.add(keyName(k));
  }
  for (const c of lineage(cls)) if (!isNative(c)) for (const name of thisAssignments(c)) allMembers.add(name);
  const statics = new Map();
  for (const k of publicKeys(cls)) {
    if (k === "length" || k === "name" || k === "prototype") continue;
    statics.set(keyName(k), actualMember(Object.getOwnPropertyDescriptor(cls, k)));
  }
  return { kind: "class", base, construct, members, allMembers, statics };
}

/** The module's exports, in declaredApi's shape. */
function actualApi(module) {
  const api = new Map();
  for (const [name, v] of Object.entries(module)) {
    if (isClass(v)) api.set(name, actualClass(v));
    else if (typeof v === "function") api.set(name, { kind: "function", arity: actualArity(v) });
    else api.set(name, { kind: "constant" });
  }
  return api;
}

// --- the comparison ------------------------------------------------------------------------------

/**
 * Every difference between the declarations and the module: `{area, text}`, the area "exports",
 * "functions" or "classes", the text one sentence that names the item.
 */
function differences(declared, actual) {
  const out = [];
  const exports = (text) => out.push({ area: "exports", text });
  for (const [name, d] of declared) {
    const a = actual.get(name);
    if (!a) {
      exports(`${name}: index.d.ts declares a ${d.kind} that index.js does not export`);
      continue;
    }
    if (d.kind !== a.kind) {
      exports(`${name}: index.d.ts declares a ${d.kind}, index.js exports a ${a.kind}`);
      continue;
    }
    if (d.kind === "function" && !sameArity(d.arity, a.arity)) {
      out.push({
        area: "functions",
        text: `${name}(): index.d.ts takes ${showArity(d.arity)} parameters, index.js ${showArity(a.arity)}`,
      });
    }
    if (d.kind === "class") out.push(...classDifferences(name, d, a).map((text) => ({ area: "classes", text })));
  }
  for (const [name, a] of actual) {
    if (!declared.has(name)) exports(`${name}: index.js exports a ${a.kind} that index.d.ts does not declare`);
  }
  return out;
}

function classDifferences(name, d, a) {
  const out = [];
  if (d.base !== a.base) out.push(`${name}: index.d.ts extends ${d.base ?? "nothing"}, index.js ${a.base ?? "nothing"}`);
  if (!sameArity(d.construct, a.construct)) {
    out.push(`new ${name}(): index.d.ts takes ${showArity(d.construct)} parameters, index.js ${showArity(a.construct)}`);
  }
  out.push(...memberDifferences(`${name}.`, d.members, a.members, d.allMembers, a.allMembers));
  out.push(...memberDifferences(`${name}.`, d.statics, a.statics, new Set(d.statics.keys()), new Set(a.statics.keys()), "static "));
  return out;
}

function memberDifferences(prefix, declared, actual, declaredAll, actualAll, what = "") {
  const out = [];
  for (const [m, dm] of declared) {
    const item = `${prefix}${m}`;
    if (!actualAll.has(m)) {
      out.push(`${item}: index.d.ts declares a ${what}${dm.kind} that index.js does not have`);
      continue;
    }
    const am = actual.get(m);
    if (!am) continue; // inherited in index.js, declared in the class itself: the same to a user
    if (dm.kind !== am.kind) {
      out.push(`${item}: index.d.ts declares a ${what}${dm.kind}, index.js has a ${am.kind}`);
    } else if (dm.kind === "method" && !sameArity(dm.arity, am.arity)) {
      out.push(`${item}(): index.d.ts takes ${showArity(dm.arity)} parameters, index.js ${showArity(am.arity)}`);
    } else if (dm.kind === "property" && !dm.readonly && am.readonly) {
      out.push(`${item}: index.d.ts declares it writable, index.js has it read-only`);
    }
  }
  for (const [m, am] of actual) {
    if (!declaredAll.has(m)) out.push(`${prefix}${m}: index.js has a ${what}${am.kind} that index.d.ts does not declare`);
  }
  return out;
}

// --- the tests -----------------------------------------------------------------------------------

// Each entry: the whole package (index.d.ts, index.js), and the codec alone (codec.d.ts, which
// re-exports index.d.ts's declarations, and codec.js).
for (const [specifier, module] of [
  ["fast-var-codec", whole],
  ["fast-var-codec/codec", codecEntry],
]) {
  const file = declarationsFile(specifier);
  const declared = declaredApi(file);
  const actual = actualApi(module);
  const found = differences(declared, actual);
  const foundIn = (area) => found.filter((d) => d.area === area).map((d) => d.text);

  test(`declarations (${specifier}): its .d.ts declares exactly the exports of its module, each as what it is`, () => {
    assert.ok(actual.size >= 40 && declared.size >= 40, `${actual.size} exports, ${declared.size} declared`);
    assert.deepEqual(foundIn("exports"), []);
  });

  test(`declarations (${specifier}): every exported function takes the parameters its .d.ts says`, () => {
    assert.deepEqual(foundIn("functions"), []);
  });

  test(`declarations (${specifier}): each class's base, constructor, methods, getters, properties and statics agree`, () => {
    const classes = [...declared.values()].filter((d) => d.kind === "class").length;
    assert.ok(classes >= 30, `${classes} classes declared`);
    assert.deepEqual(foundIn("classes"), []);
  });
}

// The check itself, on a small pair made to differ in every way it looks at, and to agree where
// the two sides only write the same thing differently (a getter declared as a read-only property,
// overloads against one function with a default, a constructor inherited, private names).
const FIXTURE_DECLARATIONS = `
export type Shape = "a" | "b";
export interface Options { n?: number }
export const LIMIT: number;
export function kept(a: number, b?: Options): void;
export function overloaded(a: string): string;
export function overloaded(a: string, b: number): number;
export function gone(): void;
export function wrongCount(a: number, b?: number): void;
export function wasClass(): void;
export class Base {
  constructor(a: number);
  readonly label: string;
}
export class Child extends Base {
  private readonly _brand: "Child";
  readonly size: number;
  count: number;
  [Symbol.iterator](): Iterator<number>;
  run(x: number, y?: number): void;
  missing(): void;
  writable: number;
  wasMethod: number;
}
export class Loose {}
`;

const INTERNAL = Symbol("internal");
class Base {
  constructor(a) {
    this.label = String(a);
  }
}
class Child extends Base {
  constructor(a) {
    super(a);
    this._hidden = 1;
    this.extra = 2;
    const reset = () => {
      this.count = 0;
    };
    reset();
  }
  get size() {
    return 0;
  }
  get writable() {
    return 1;
  }
  *[Symbol.iterator]() {}
  run(x, y) {}
  wasMethod() {}
  undeclared() {}
  _private() {}
  static make() {}
}
Child.prototype[INTERNAL] = 1;
class Loose extends Base {}
const FIXTURE_MODULE = {
  LIMIT: 1,
  kept(a, b = {}) {},
  overloaded(a, b = 0) {},
  wrongCount(a, b) {},
  wasClass: class {},
  Base,
  Child,
  Loose,
  added() {},
};

test("declarations: the check names each kind of difference, and only those (a pair made to differ)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fvc-declarations-"));
  let fixture;
  try {
    fs.writeFileSync(path.join(dir, "index.d.ts"), FIXTURE_DECLARATIONS);
    fixture = declaredApi(path.join(dir, "index.d.ts"));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const got = differences(fixture, actualApi(FIXTURE_MODULE));
  assert.deepEqual(got.map((d) => `${d.area}: ${d.text}`).sort(), [
    "classes: Child.extra: index.js has a property that index.d.ts does not declare",
    "classes: Child.make: index.js has a static method that index.d.ts does not declare",
    "classes: Child.missing: index.d.ts declares a method that index.js does not have",
    "classes: Child.run(): index.d.ts takes 1 required of 2 parameters, index.js 2",
    "classes: Child.undeclared: index.js has a method that index.d.ts does not declare",
    "classes: Child.wasMethod: index.d.ts declares a property, index.js has a method",
    "classes: Child.writable: index.d.ts declares it writable, index.js has it read-only",
    "classes: Loose: index.d.ts extends nothing, index.js Base",
    "classes: new Loose(): index.d.ts takes 0 parameters, index.js 1",
    "exports: added: index.js exports a function that index.d.ts does not declare",
    "exports: gone: index.d.ts declares a function that index.js does not export",
    "exports: wasClass: index.d.ts declares a function, index.js exports a class",
    "functions: wrongCount(): index.d.ts takes 1 required of 2 parameters, index.js 2",
  ]);
});
