import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Scene } from '../../../../shared/scene';
import { ancestorIds, findElements, sceneTree, treeCaption, type SceneTreeNode } from '../../../../shared/scene-tree';
import { useWords } from '../../i18n/use-words';
import { pinElement, setInspectQuery } from '../../store/inspect-store';

interface Props {
  scene: Scene;
  selectedId: string | null;
  query: string;
}

interface Row {
  node: SceneTreeNode;
  level: number;
  parentId: string | null;
}

/** The tree's rows as shown: open branches only, and with a search only the matches and the branches that lead to them. */
function visibleRows(tree: readonly SceneTreeNode[], closed: ReadonlySet<string>, shown: ReadonlySet<string> | null): Row[] {
  const rows: Row[] = [];
  const walk = (nodes: readonly SceneTreeNode[], level: number, parentId: string | null) => {
    for (const node of nodes) {
      if (shown && !shown.has(node.element.id)) continue;
      rows.push({ node, level, parentId });
      if (!closed.has(node.element.id)) walk(node.children, level + 1, node.element.id);
    }
  };
  walk(tree, 1, null);
  return rows;
}

/**
 * The screen's elements as a tree (an element inside another's bounds is its child), searchable. Selecting a row
 * outlines its element; an element pointed at on the mirror is selected here (its branch opened, its row scrolled to).
 * Keys: arrows move and open or close, Home/End, Enter or Space holds the selection.
 */
export function ElementTree({ scene, selectedId, query }: Props) {
  const { t } = useWords();
  const tree = useMemo(() => sceneTree(scene), [scene]);
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const found = useMemo(() => findElements(scene, query), [scene, query]);
  const shown = useMemo(() => {
    if (!query.trim()) return null;
    return new Set(found.flatMap((element) => [...ancestorIds(tree, element.id), element.id]));
  }, [found, query, tree]);
  const rows = useMemo(() => visibleRows(tree, shown ? new Set() : closed, shown), [tree, closed, shown]);
  const list = useRef<HTMLUListElement>(null);

  // The selection came from the mirror or a search: open the branches to it and bring its row into view.
  useEffect(() => {
    if (!selectedId) return;
    const path = ancestorIds(tree, selectedId);
    if (path.some((id) => closed.has(id))) setClosed((before) => new Set([...before].filter((id) => !path.includes(id))));
    list.current?.querySelector(`[data-element-id="${selectedId}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [selectedId, tree, closed]);

  const focusRow = (id: string) => {
    pinElement(id);
    // After React has drawn the row with tabIndex 0.
    requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-element-id="${id}"]`)?.focus());
  };
  const onSearch = (value: string) => {
    setInspectQuery(value);
    const first = findElements(scene, value)[0];
    if (first) pinElement(first.id);
  };
  const toggle = (id: string) => setClosed((before) => (before.has(id) ? new Set([...before].filter((other) => other !== id)) : new Set([...before, id])));
  const onRowKey = (event: KeyboardEvent<HTMLLIElement>, index: number) => {
    const row = rows[index]!;
    const id = row.node.element.id;
    const hasChildren = row.node.children.length > 0;
    const open = hasChildren && !closed.has(id);
    const move = (to: number) => {
      const target = rows[Math.min(Math.max(to, 0), rows.length - 1)];
      if (target) focusRow(target.node.element.id);
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(rows.length - 1);
    else if (event.key === 'ArrowRight') {
      if (hasChildren && !open && !shown) toggle(id);
      else if (open) move(index + 1);
    } else if (event.key === 'ArrowLeft') {
      if (open && !shown) toggle(id);
      else if (row.parentId) focusRow(row.parentId);
    } else if (event.key === 'Enter' || event.key === ' ') pinElement(id);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
  const focusable = selectedId && rows.some((row) => row.node.element.id === selectedId) ? selectedId : rows[0]?.node.element.id;

  return (
    <div className="inspect-tree">
      <label className="inspect-search">
        <span>{t('inspect:searchLabel')}</span>
        <input
          type="search"
          value={query}
          placeholder={t('inspect:searchPlaceholder')}
          data-testid="inspect-search"
          onChange={(event) => onSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' && rows[0]) {
              event.preventDefault();
              focusRow(rows.find((row) => row.node.element.id === selectedId)?.node.element.id ?? rows[0].node.element.id);
            }
          }}
        />
      </label>
      {query.trim() && (
        <p className="small muted" role="status" data-testid="inspect-found">
          {found.length ? t('inspect:found', { count: found.length }) : t('inspect:notFound', { query: query.trim() })}
        </p>
      )}
      <ul className="inspect-tree-list" role="tree" aria-label={t('inspect:treeLabel')} ref={list} data-testid="inspect-tree">
        {rows.map((row, index) => {
          const { element } = row.node;
          const hasChildren = row.node.children.length > 0;
          const selected = element.id === selectedId;
          const caption = treeCaption(element);
          return (
            <li
              key={element.id}
              role="treeitem"
              aria-level={row.level}
              aria-selected={selected}
              aria-expanded={hasChildren ? shown !== null || !closed.has(element.id) : undefined}
              aria-label={t('inspect:treeItem', { id: element.id, type: element.type, name: caption === element.type ? '' : caption })}
              tabIndex={element.id === focusable ? 0 : -1}
              className={`inspect-tree-row${selected ? ' is-selected' : ''}${shown && !found.includes(element) ? ' is-context' : ''}`}
              style={{ paddingInlineStart: `${(row.level - 1) * 14 + 4}px` }}
              data-element-id={element.id}
              data-testid="inspect-tree-row"
              onClick={() => focusRow(element.id)}
              onKeyDown={(event) => onRowKey(event, index)}
            >
              <span
                className="inspect-caret"
                aria-hidden="true"
                onClick={(event) => {
                  if (!hasChildren || shown) return;
                  event.stopPropagation();
                  toggle(element.id);
                }}
              >
                {hasChildren ? (shown !== null || !closed.has(element.id) ? '▾' : '▸') : ''}
              </span>
              <code>{element.id}</code> <span className="inspect-type">{element.type}</span>
              {caption !== element.type && <span className="inspect-name"> {caption.length > 60 ? `${caption.slice(0, 59)}…` : caption}</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
