import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * The names of the fields selected on this field's result, or on its `under` field's (a page's
 * `items`), through fragments. Directives are not read: a field skipped by one is at most loaded
 * for nothing.
 */
export function selectedFields(info: GraphQLResolveInfo, under?: string): Set<string> {
  const names = new Set<string>();
  const visit = (set: SelectionSetNode | undefined, each: (field: FieldNode) => void) => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) each(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet, each);
      else visit(info.fragments[selection.name.value]?.selectionSet, each);
    }
  };
  const name = (field: FieldNode) => names.add(field.name.value);
  const inside = (field: FieldNode) => {
    if (field.name.value === under) visit(field.selectionSet, name);
  };
  for (const node of info.fieldNodes) visit(node.selectionSet, under === undefined ? name : inside);
  return names;
}
