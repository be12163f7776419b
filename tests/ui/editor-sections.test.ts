import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../engine/types';
import en from '../../ui/i18n/en.json';
import enCatalogue from '../../ui/i18n/en-catalogue.json';
import { inSection, mergeSection, pickSection, sectionSchema, sectionUiSchema } from '../../ui/pages/editor-sections';

const settings: JsonObject = {
  type: 'object',
  definitions: { color: { type: 'string' } },
  required: ['general', 'design'],
  allOf: [{ if: { properties: { general: { const: 1 } } }, then: { required: ['design'] } }],
  properties: {
    general: { type: 'object', title: 'General settings', properties: { status: { type: 'boolean' } } },
    design: { type: 'object', title: 'Design', properties: { cardColor: { $ref: '#/definitions/color' } } },
  },
};

describe('editor sections', () => {
  it('keeps only the shown properties and their required names, with the definitions they refer to', () => {
    const section = sectionSchema(settings, ['design']);
    expect(Object.keys(section.properties as JsonObject)).toEqual(['design']);
    expect(section.required).toEqual(['design']);
    expect(section.definitions).toEqual(settings.definitions);
    expect(section.allOf).toBeUndefined();
  });

  it('names only shown properties in ui:order and drops the title of a one-object tab', () => {
    const ui = sectionUiSchema({ 'ui:order': ['general', 'design'], design: { cardColor: { 'ui:widget': 'color' } } }, ['design'], settings);
    expect(ui['ui:order']).toEqual(['design', '*']);
    expect(ui.design).toEqual({ cardColor: { 'ui:widget': 'color' }, 'ui:label': false, 'ui:classNames': 'form-section' });
  });

  it('merges a tab\'s edits into the whole document and removes what the tab cleared', () => {
    const doc = { general: { status: true }, design: { cardColor: '#000000' }, other: 1 };
    expect(pickSection(doc, ['design'])).toEqual({ design: { cardColor: '#000000' } });
    expect(mergeSection(doc, { design: { cardColor: '#ffffff' } }, ['design'])).toEqual({ ...doc, design: { cardColor: '#ffffff' } });
    expect(mergeSection(doc, {}, ['design'])).toEqual({ general: { status: true }, other: 1 });
  });

  it('tells which server issues point into the tab', () => {
    expect(inSection({ path: '/design/cardColor', message: 'x' }, ['design'])).toBe(true);
    expect(inSection({ path: '/general/status', message: 'x' }, ['design'])).toBe(false);
    expect(inSection({ path: '', message: 'x' }, ['design'])).toBe(false);
  });
});

describe('catalogue strings', () => {
  it('adds keys of its own rather than overriding the shared catalog', () => {
    expect(Object.keys(enCatalogue).filter((key) => key in en)).toEqual([]);
  });
});
