import { describe, expect, it } from 'vitest';
import { escapeHtml, html, raw } from './html.js';

describe('html', () => {
  it('escapes every interpolation by default', () => {
    const name = `<script>alert("x")</script> & 'quotes' \``;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; &#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; &#96;</p>',
    );
  });

  it('keeps nested fragments and raw markup, renders lists, and drops null, undefined and false', () => {
    const items = ['a<b', 'c'].map((s) => html`<li>${s}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${raw('<br>')}${0}`.value).toBe(
      '<ul><li>a&lt;b</li><li>c</li></ul><br>0',
    );
  });

  it('escapes plain strings', () => {
    expect(escapeHtml('"><img src=x onerror=alert(1)>')).toBe('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
  });
});
