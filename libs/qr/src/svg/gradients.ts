import { svgPaint } from '../color.js';
import type { Gradient } from '../model.js';
import { num } from './path.js';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * A gradient in user space over `box`, so that every dot (and finder) shares one continuous gradient.
 * Linear: `angle` degrees clockwise from left-to-right, through the box's centre, long enough to reach every
 * corner. Radial: from the centre to the corners. Stops in offset order (a stable sort keeps equal offsets).
 */
export function gradientDef(id: string, g: Gradient, box: Box): string {
  const stops = [...g.colors]
    .sort((a, b) => a.offset - b.offset)
    .map(({ color, offset }) => {
      const { color: c, opacity } = svgPaint(color);
      return `<stop offset="${offset}%" stop-color="${c}"${opacity < 1 ? ` stop-opacity="${opacity}"` : ''}/>`;
    })
    .join('');
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  if (g.style === 'radial') {
    const r = Math.hypot(box.w, box.h) / 2;
    return `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}">${stops}</radialGradient>`;
  }
  const radians = (((g.angle ?? 0) % 360) * Math.PI) / 180;
  const dx = Math.cos(radians);
  const dy = Math.sin(radians);
  const half = (Math.abs(dx) * box.w + Math.abs(dy) * box.h) / 2;
  const coords = `x1="${num(cx - dx * half)}" y1="${num(cy - dy * half)}" x2="${num(cx + dx * half)}" y2="${num(cy + dy * half)}"`;
  return `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" ${coords}>${stops}</linearGradient>`;
}
