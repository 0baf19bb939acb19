// Where a value comes from, followed back through the calls it is made by, the objects they are
// called on and the names it was assigned to (`h = hashlib.md5()` … `h.hexdigest()`): whether a
// hasher of a kind made it. Bounded: a few names deep, a few hundred nodes.
import type { Node } from '@vscode/tree-sitter-wasm';
import type { Bindings } from './string-parts.ts';
import { argumentsOf, calleeName, receiverOf } from './string-parts.ts';
import type { LanguageProfile } from './languages.ts';
import { isCall } from './languages.ts';

/** MD5 or SHA-1, as a callee names it: hashlib.md5, md5.New, Digest::MD5.hexdigest, md5(…). */
const WEAK_NAME = /^(?:md5|sha-?1)$/i;
/** A factory given the algorithm's name: createHash('md5'), MessageDigest.getInstance("SHA-1"), hashes.Hash(hashes.MD5()). */
const FACTORY = /(?:^|\.)(?:createHash|getInstance|new|New|Hash|HashAlgorithm|Create|hash|hash_init)$/;

const MAX_NODES = 200;
const MAX_DEPTH = 4;

/** The value was made by an MD5 or SHA-1 hasher (or is its digest). */
export function madeByWeakHash(node: Node, profile: LanguageProfile, bindings: Bindings): boolean {
  const budget = { nodes: 0 };
  return walk(node, profile, bindings, 0, budget);
}

function walk(
  node: Node,
  profile: LanguageProfile,
  bindings: Bindings,
  depth: number,
  budget: { nodes: number },
): boolean {
  if (++budget.nodes > MAX_NODES) return false;
  if (isCall(profile, node.type)) {
    const callee = calleeName(node);
    if (callee.split('.').some((part) => WEAK_NAME.test(part))) return true;
    const args = argumentsOf(node, profile);
    if (
      FACTORY.test(callee) &&
      args.some(
        (arg) => WEAK_NAME.test(arg.text.replace(/^["'`]|["'`]$/g, '')) || walk(arg, profile, bindings, depth, budget),
      )
    )
      return true;
    const receiver = receiverOf(node);
    return receiver !== null && walk(receiver, profile, bindings, depth, budget);
  }
  if (node.type === 'identifier' || node.type === 'variable_name') {
    if (depth >= MAX_DEPTH) return false;
    return bindings.valuesAt(node).some((binding) => walk(binding.value, profile, bindings, depth + 1, budget));
  }
  // a member of an object (h.digest in Go's h.Sum), a parenthesised value
  const inner =
    node.childForFieldName('object') ??
    node.childForFieldName('operand') ??
    (node.type === 'parenthesized_expression' ? node.namedChildren[0] : null);
  return inner !== null && inner !== undefined && walk(inner, profile, bindings, depth, budget);
}

/** A download: curl or wget, the programs a script fetches code with. */
const DOWNLOADER = /^(?:curl|wget)$/;
const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);

/** Shell: the value is the output of a download ($(curl …), <(wget …)), followed through variables. */
export function madeByDownload(node: Node, profile: LanguageProfile, bindings: Bindings): boolean {
  return downloaded(node, profile, bindings, 0, { nodes: 0 });
}

function downloaded(
  node: Node,
  profile: LanguageProfile,
  bindings: Bindings,
  depth: number,
  budget: { nodes: number },
): boolean {
  if (++budget.nodes > MAX_NODES) return false;
  if (SUBSTITUTIONS.has(node.type))
    return node.descendantsOfType('command_name').some((name) => name !== null && DOWNLOADER.test(name.text));
  if (node.type === 'variable_name') {
    if (depth >= MAX_DEPTH) return false;
    return bindings.valuesAt(node).some((binding) => downloaded(binding.value, profile, bindings, depth + 1, budget));
  }
  return node.namedChildren.some((child) => child !== null && downloaded(child, profile, bindings, depth, budget));
}
