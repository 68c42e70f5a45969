import type { Scene } from '../../../../shared/scene';
import { elementCaption, elementLabel } from '../../../../shared/scene';

interface Props {
  scene: Scene;
  /** The action's target element, outlined. */
  targetId?: string;
  /** Where the action landed, in device pixels. */
  point?: { x: number; y: number } | null;
  title: string;
}

/**
 * The turn's screen drawn from the stored Scene's element bounds (no screenshot is ever stored): what the planner
 * read, with the element it acted on marked.
 */
export function SceneWireframe({ scene, targetId, point, title }: Props) {
  const { width, height } = scene.screen;
  const radius = Math.max(width, height) / 60;
  return (
    <svg
      className="scene-wireframe"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={title}
      data-testid="scene-wireframe"
    >
      <rect className="wf-screen" x={0} y={0} width={width} height={height} />
      {scene.elements.map((element) => {
        const [left, top, right, bottom] = element.bounds;
        const isTarget = element.id === targetId;
        const kind = isTarget ? 'wf-target' : element.editable ? 'wf-editable' : element.clickable ? 'wf-clickable' : 'wf-plain';
        return (
          <rect
            key={element.id}
            className={`wf-element ${kind}`}
            x={left}
            y={top}
            width={Math.max(0, right - left)}
            height={Math.max(0, bottom - top)}
            data-element-id={element.id}
          >
            <title>{`${element.id}: ${elementLabel(element)}`}</title>
          </rect>
        );
      })}
      {scene.elements.map((element) => {
        const name = elementCaption(element);
        if (!name) return null;
        const [left, top, , bottom] = element.bounds;
        const fontSize = Math.min((bottom - top) * 0.6, width / 28);
        return (
          <text
            key={`label-${element.id}`}
            className="wf-label"
            x={left + fontSize / 3}
            y={(top + bottom) / 2 + fontSize / 3}
            fontSize={fontSize}
            aria-hidden="true"
          >
            {name.length > 28 ? `${name.slice(0, 27)}…` : name}
          </text>
        );
      })}
      {point && <circle className="wf-point" cx={point.x} cy={point.y} r={radius} data-testid="wireframe-target" />}
    </svg>
  );
}
