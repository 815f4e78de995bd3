import { PipeTransform } from '@nestjs/common';
import { NotFoundProblem } from '../problems/problem';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A path id that must have the shape of a UUID, like ParseUUIDPipe, except that anything else
 * answers 404 `<resource>_not_found` (a malformed id names nothing, as a missing one) instead
 * of 400. `@Param('id', new UuidParam('revision')) id: string`.
 */
export class UuidParam implements PipeTransform<string, string> {
  constructor(private readonly resource: string) {}

  transform(value: string): string {
    if (typeof value !== 'string' || !UUID.test(value)) throw new NotFoundProblem(this.resource);
    return value;
  }
}
