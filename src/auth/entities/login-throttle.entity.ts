import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../common/database/columns';

/** Failed sign-ins counted per account and per address, in the database so every instance agrees. */
@Entity('login_throttle')
export class LoginThrottleEntity {
  /** `user:<username>` or `ip:<address>`. */
  @PrimaryColumn({ type: 'varchar', length: 200 })
  key: string;

  @Column({ type: 'int' })
  failures: number;

  @DateTimeColumn({ name: 'window_start' })
  windowStart: Date;
}
