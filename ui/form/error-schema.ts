import type { ErrorSchema } from '@rjsf/utils';
import type { FieldIssue } from '../../engine/types';

/**
 * Splits a JSON Pointer (RFC 6901) into its unescaped segments.
 * @example pointerSegments('/conditions/0/content') // ['conditions', '0', 'content']
 */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .replace(/^\//, '')
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Turns the server's field issues (422 `details`) into RJSF `extraErrors`, so each message shows on
 * its own field. Issues about the whole document (path `""`) are left out: the page shows them in a banner.
 * @example issuesToErrorSchema([{ path: '/a/0/b', message: 'Required' }]) // { a: { 0: { b: { __errors: ['Required'] } } } }
 */
export function issuesToErrorSchema(issues: readonly FieldIssue[]): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const issue of issues) {
    const segments = pointerSegments(issue.path);
    if (segments.length === 0) continue;
    let node = root;
    for (const segment of segments) {
      node[segment] ??= {};
      node = node[segment] as Record<string, unknown>;
    }
    const errors = (node.__errors ??= []) as string[];
    errors.push(issue.message);
  }
  return root as ErrorSchema;
}

/** The value a JSON Pointer points at inside `data`, or undefined when the path does not exist. */
export function valueAtPointer(data: unknown, pointer: string): unknown {
  let node: unknown = data;
  for (const segment of pointerSegments(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
