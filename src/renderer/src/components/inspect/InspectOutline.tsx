import type { Scene } from '../../../../shared/scene';

interface Props {
  scene: Scene;
  selectedId: string | null;
  /** The element under the pointer while a click holds the selection elsewhere. */
  pointedId: string | null;
}

/**
 * The inspected elements outlined over a picture of the screen (the live mirror, or the box layout): the selected one
 * boldly, the one under the pointer lightly. Drawn in the Scene's own pixels, so it lines up whatever the picture's size.
 */
export function InspectOutline({ scene, selectedId, pointedId }: Props) {
  const { width, height } = scene.screen;
  const box = (id: string | null, className: string, testId: string) => {
    const element = id ? scene.elements.find((candidate) => candidate.id === id) : undefined;
    if (!element) return null;
    const [left, top, right, bottom] = element.bounds;
    return (
      <rect
        className={className}
        data-testid={testId}
        data-element-id={element.id}
        x={left}
        y={top}
        width={Math.max(0, right - left)}
        height={Math.max(0, bottom - top)}
        vectorEffect="non-scaling-stroke"
      />
    );
  };
  return (
    <svg className="inspect-outline" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true">
      {pointedId !== selectedId && box(pointedId, 'inspect-pointed', 'inspect-pointed')}
      {box(selectedId, 'inspect-selected', 'inspect-outline')}
    </svg>
  );
}
