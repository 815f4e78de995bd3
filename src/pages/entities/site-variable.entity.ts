import { Column, Entity, PrimaryColumn } from 'typeorm';
import { LongTextColumn } from '../../common/database/columns';

/** A site-wide variable every page inherits (a page's own value wins). */
@Entity('site_variables')
export class SiteVariableEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @LongTextColumn()
  value: string;
}

/**
 * One row (id 1) whose version grows on every change of the site-wide variables; a page's
 * stored HTML is reused only while it was rendered at the current version.
 */
@Entity('site_variable_state')
export class SiteVariableStateEntity {
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'int' })
  version: number;
}
