import { Entity } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { SerialIdColumn, TextColumn } from '../../kernel/entity-columns.js';

@ObjectType({ description: 'Pays for a campaign and receives the tax invoice.' })
@Entity({ tableName: 'advertiser' })
export class Advertiser {
  @SerialIdColumn() id!: string;
  @TextColumn() name!: string;
  @TextColumn() email!: string;
}
