import {
  Kind,
  type DocumentNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * The settlement's retry-safety headers (issue 23 item 5, DESIGN.md section 7): the request's
 * `Idempotency-Key` and the answer's `Idempotent-Replayed`. The REST adapter and the gateways
 * forward them; the subgraph that owns the data keeps the keys (one implementation for both
 * interfaces).
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** What is wrong with a sent key (1-255 characters), or null when it is usable. */
export function idempotencyKeyProblem(key: string): string | null {
  if (key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH) return null;
  return `Idempotency-Key must be 1-${IDEMPOTENCY_KEY_MAX_LENGTH} characters; it has ${key.length}.`;
}

/** The operation a request runs: the named one, or the only one. */
export function operationOf(
  document: DocumentNode,
  operationName?: string | null,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
}

/** Top-level fields of a selection, fragments spread out (an alias counts as its own field). */
function topFields(
  document: DocumentNode,
  selectionSet: SelectionSetNode,
  seen: Set<string>,
): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) count += selection.name.value === '__typename' ? 0 : 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      count += topFields(document, selection.selectionSet, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = document.definitions.find(
        (d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value,
      );
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION)
        count += topFields(document, fragment.selectionSet, seen);
    }
  }
  return count;
}

/**
 * Why a request with an Idempotency-Key cannot be kept under it, or null: a key names one change,
 * so a mutation with more than one field (whose answers would be stored as one) is refused.
 */
export function keyedOperationProblem(
  key: string,
  document: DocumentNode,
  operationName?: string | null,
): string | null {
  const problem = idempotencyKeyProblem(key);
  if (problem) return problem;
  const operation = operationOf(document, operationName);
  if (operation?.operation !== 'mutation') return null;
  if (topFields(document, operation.selectionSet, new Set()) <= 1) return null;
  return 'A request with an Idempotency-Key may run one mutation field; send each mutation on its own.';
}
