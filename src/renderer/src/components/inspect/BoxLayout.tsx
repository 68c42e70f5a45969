import type { MouseEvent } from 'react';
import { elementCaption, type Scene } from '../../../../shared/scene';
import { elementAt } from '../../../../shared/scene-tree';
import { pinElement, pointAtElement } from '../../store/inspect-store';
import { InspectOutline } from './InspectOutline';

interface Props {
  scene: Scene;
  selectedId: string | null;
  pointedId: string | null;
  label: string;
}

/**
 * A neutral picture of a screen no picture was kept of (seed D5: no screenshot bytes are stored): each element's box
 * from its bounds, pointed at and clicked like the mirror.
 */
export function BoxLayout({ scene, selectedId, pointedId, label }: Props) {
  const { width, height } = scene.screen;
  const at = (event: MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const point = { x: ((event.clientX - box.left) / box.width) * width, y: ((event.clientY - box.top) / box.height) * height };
    return elementAt(scene, point)?.id ?? null;
  };
  return (
    <div
      className="inspect-boxes"
      style={{ aspectRatio: `${width} / ${height}` }}
      role="img"
      aria-label={label}
      data-testid="inspect-boxes"
      onPointerMove={(event) => pointAtElement(at(event))}
      onPointerLeave={() => pointAtElement(null)}
      onClick={(event) => pinElement(at(event))}
    >
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true">
        <rect className="wf-screen" x={0} y={0} width={width} height={height} vectorEffect="non-scaling-stroke" />
        {scene.elements.map(({ id, bounds: [left, top, right, bottom], clickable, editable }) => (
          <rect
            key={id}
            className={`wf-element ${editable ? 'wf-editable' : clickable ? 'wf-clickable' : 'wf-plain'}`}
            x={left}
            y={top}
            width={Math.max(0, right - left)}
            height={Math.max(0, bottom - top)}
            vectorEffect="non-scaling-stroke"
          />
        ))}
        {scene.elements.map((element) => {
          const name = elementCaption(element);
          if (!name) return null;
          const [left, top, , bottom] = element.bounds;
          const fontSize = Math.min((bottom - top) * 0.5, width / 24);
          return (
            <text key={`label-${element.id}`} className="wf-label" x={left + fontSize / 3} y={(top + bottom) / 2 + fontSize / 3} fontSize={fontSize}>
              {name.length > 24 ? `${name.slice(0, 23)}…` : name}
            </text>
          );
        })}
      </svg>
      <InspectOutline scene={scene} selectedId={selectedId} pointedId={pointedId} />
    </div>
  );
}
